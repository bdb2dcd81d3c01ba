-- Searches the scraper works on. The bus handler only records a job; workers on any replica claim
-- it with a lease (FOR UPDATE SKIP LOCKED), renew the lease while they work, and another replica
-- takes over once a lease has expired.
CREATE TABLE IF NOT EXISTS scraper_jobs (
  search_id text PRIMARY KEY,
  user_id text NOT NULL,
  industry text NOT NULL,
  location text NOT NULL,
  quantity integer NOT NULL CHECK (quantity >= 0),
  deadline_at timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'finished')),
  cancel_requested boolean NOT NULL DEFAULT false,
  lease_owner text,
  lease_expires_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  places_found integer NOT NULL DEFAULT 0,
  websites_checked integer NOT NULL DEFAULT 0,
  leads_sent integer NOT NULL DEFAULT 0 CHECK (leads_sent <= quantity),
  with_email integer NOT NULL DEFAULT 0,
  with_phone integer NOT NULL DEFAULT 0,
  with_website integer NOT NULL DEFAULT 0,
  finish_reason text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX IF NOT EXISTS scraper_jobs_open ON scraper_jobs (created_at) WHERE state <> 'finished';

-- Every place a job has dealt with, so a replica that takes a job over skips them; a place that
-- became a lead carries the lead's contact key, unique per search, so no lead is sent twice.
CREATE TABLE IF NOT EXISTS scraper_job_places (
  search_id text NOT NULL REFERENCES scraper_jobs (search_id) ON DELETE CASCADE,
  place_key text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('lead', 'no_contact', 'duplicate', 'failed')),
  contact_key text,
  processed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (search_id, place_key)
);
CREATE UNIQUE INDEX IF NOT EXISTS scraper_job_places_contact ON scraper_job_places (search_id, contact_key) WHERE contact_key IS NOT NULL;

-- Proxy usage, added to by every replica (additive updates), read by the admin Proxy Stats tab.
CREATE TABLE IF NOT EXISTS scraper_usage_totals (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  successful bigint NOT NULL DEFAULT 0,
  failed bigint NOT NULL DEFAULT 0,
  response_ms bigint NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0,
  last_request_at timestamptz,
  reset_at timestamptz
);
INSERT INTO scraper_usage_totals (id) VALUES (1) ON CONFLICT (id) DO NOTHING;

CREATE TABLE IF NOT EXISTS scraper_usage_domains (
  domain text PRIMARY KEY,
  requests bigint NOT NULL DEFAULT 0
);

-- The in-process proxy quota's last value (local mode), so a restart keeps what an admin set.
CREATE TABLE IF NOT EXISTS scraper_quota_snapshot (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  remaining_requests bigint NOT NULL CHECK (remaining_requests >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

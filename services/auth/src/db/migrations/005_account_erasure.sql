-- Addresses of deleted accounts, only as an HMAC-SHA256 under a key of this database
-- (account_erasure_keys): the address may register again, but not earn a second signup grant.
CREATE TABLE withheld_signup_grants (
  email_hash text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One row: the key of the hashes above, made by auth on first use.
CREATE TABLE account_erasure_keys (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  hmac_key text NOT NULL
);

-- Accounts deleted before this migration kept `deleted-<sha256>@deleted.invalid` as their address:
-- the unkeyed hash moves here (looked up as `sha256:<hex>`) and the row keeps only its id.
INSERT INTO withheld_signup_grants (email_hash)
  SELECT 'sha256:' || substring(email from 9 for 64) FROM users
  WHERE status = 'deleted' AND email ~ '^deleted-[0-9a-f]{64}@deleted\.invalid$'
  ON CONFLICT DO NOTHING;
UPDATE users SET email = 'deleted-' || id || '@deleted.invalid'
  WHERE status = 'deleted' AND email ~ '^deleted-[0-9a-f]{64}@deleted\.invalid$';

-- "Your leads are ready" for a search that ran more than a minute, unless turned off in settings.
ALTER TABLE users ADD COLUMN notify_search_ready boolean NOT NULL DEFAULT true;

-- When each search of the last day was requested (search.requested), to tell on search.completed
-- whether it ran long enough to email about.
CREATE TABLE searches_in_progress (
  search_id text PRIMARY KEY,
  user_id uuid NOT NULL,
  requested_at timestamptz NOT NULL
);
CREATE INDEX searches_in_progress_age ON searches_in_progress (requested_at);

-- Monitors: a saved search run on a schedule that delivers only businesses the user never received
-- (docs/monitors.md). The row is also the scheduler's queue entry (kit LeasedQueue): `attempts` and
-- `next_attempt_at` are the lease; `next_run_at` is the due time a run belongs to, and
-- `next_attempt_at` starts at it plus a random spread so that monitors due together start apart.
CREATE TABLE monitors (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  industry text NOT NULL,
  location text NOT NULL,
  max_leads_per_run integer NOT NULL CHECK (max_leads_per_run BETWEEN 1 AND 200),
  frequency text NOT NULL CHECK (frequency IN ('daily', 'weekly')),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
  notify_email boolean NOT NULL DEFAULT false,
  next_run_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX monitors_user ON monitors (user_id, created_at DESC, id DESC);
CREATE INDEX monitors_due ON monitors (next_attempt_at) WHERE status = 'active';

-- One row per run. A scheduled run belongs to its due time: the unique key makes a second start of the
-- same due time (another replica, a retry after a crash) find the first. `search_id` is written in the
-- transaction that records the search, so a run never has two searches; `outcome` is set only when it
-- could not start (insufficient_credits). What the run delivered and charged is its search's.
CREATE TABLE monitor_runs (
  id uuid PRIMARY KEY,
  monitor_id uuid NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
  due_at timestamptz NOT NULL,
  trigger text NOT NULL CHECK (trigger IN ('schedule', 'manual')),
  search_id uuid,
  outcome text CHECK (outcome IN ('insufficient_credits')),
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  UNIQUE (monitor_id, due_at)
);
CREATE INDEX monitor_runs_newest ON monitor_runs (monitor_id, started_at DESC, id DESC);
CREATE UNIQUE INDEX monitor_runs_search ON monitor_runs (search_id) WHERE search_id IS NOT NULL;

-- A search that is a monitor's run: its intake skips every business the user ever received.
ALTER TABLE lead_searches ADD COLUMN monitor_id uuid;

-- The sweeper's clean-ups run on the kit's job queue over lead_searches itself: a search that needs
-- one (past its deadline, its credits unsettled, its hold never confirmed) is claimed under a lease
-- (lease_owner, until sweep_due_at), and one that fails waits a growing pause counted by attempts.
ALTER TABLE lead_searches ADD COLUMN IF NOT EXISTS attempts integer NOT NULL DEFAULT 0;
ALTER TABLE lead_searches ADD COLUMN IF NOT EXISTS sweep_due_at timestamptz;
ALTER TABLE lead_searches ADD COLUMN IF NOT EXISTS lease_owner text;

-- The kit's job queue fences every write of an attempt by the claim that holds the row (issue 47).
ALTER TABLE mail_outbox ADD COLUMN IF NOT EXISTS lease_owner text;

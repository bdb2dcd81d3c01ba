-- The kit's job queue fences every write of an attempt by the claim that holds the row (issue 47).
ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS lease_owner text;
ALTER TABLE monitors ADD COLUMN IF NOT EXISTS lease_owner text;

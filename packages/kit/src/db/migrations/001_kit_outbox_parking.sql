-- An event the bus refuses for good (too large, say) is parked rather than blocking every later one:
-- kept, with the bus's answer, until it is replayed (parked_at cleared) or deleted.
ALTER TABLE kit_outbox ADD COLUMN IF NOT EXISTS parked_at timestamptz;
ALTER TABLE kit_outbox ADD COLUMN IF NOT EXISTS last_error text;
DROP INDEX IF EXISTS kit_outbox_unpublished;
CREATE INDEX IF NOT EXISTS kit_outbox_unpublished ON kit_outbox (seq) WHERE published_at IS NULL AND parked_at IS NULL;
CREATE INDEX IF NOT EXISTS kit_outbox_parked ON kit_outbox (seq) WHERE parked_at IS NOT NULL;

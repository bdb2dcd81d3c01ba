-- A delivery keeps its last failure's text (the queue writes it), so the parked-work view says why a failed one failed.
ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS last_error text;

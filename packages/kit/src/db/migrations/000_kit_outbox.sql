-- Transactional outbox: a change and the event announcing it are written in one transaction.
CREATE TABLE IF NOT EXISTS kit_outbox (
  seq bigserial PRIMARY KEY,
  event_id uuid NOT NULL UNIQUE,
  topic text NOT NULL,
  key text NOT NULL,
  envelope jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz
);
CREATE INDEX IF NOT EXISTS kit_outbox_unpublished ON kit_outbox (seq) WHERE published_at IS NULL;

-- Idempotent consumers: an event id is recorded in the same transaction as its effect.
CREATE TABLE IF NOT EXISTS kit_handled_events (
  consumer text NOT NULL,
  event_id uuid NOT NULL,
  handled_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);

-- Events a consumer kept failing on: parked here so the consumer can go on.
CREATE TABLE IF NOT EXISTS kit_dead_letters (
  id bigserial PRIMARY KEY,
  consumer text NOT NULL,
  topic text NOT NULL,
  event_id uuid NOT NULL,
  envelope jsonb NOT NULL,
  error text NOT NULL,
  attempts integer NOT NULL,
  parked_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (consumer, event_id)
);

-- The one outbox relay allowed to publish from this database, until expires_at. A lease rather than
-- a lock held in a transaction: publishing must not pin a connection (PGlite has only one).
CREATE TABLE IF NOT EXISTS kit_outbox_relay_lease (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  holder text NOT NULL,
  expires_at timestamptz NOT NULL
);

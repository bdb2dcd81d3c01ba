-- A user's webhook endpoints. The secret signs every delivery, so it is kept (not hashed): it is shown
-- to the user once, at creation, and never served again.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  url text NOT NULL,
  events jsonb NOT NULL,
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_user ON webhook_endpoints (user_id, created_at);

-- One row per event to send to one endpoint. `id` is the Leadforge-Delivery header, the same on every
-- retry; `body` is the exact bytes signed and sent. A search's deliveries are written in the transaction
-- that settles the search, once per endpoint and event (the unique key), so none is lost or doubled.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event text NOT NULL,
  search_id uuid,
  body text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- Retries stop after this (at least 24 h after the event); the delivery is then failed.
  give_up_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (endpoint_id, event, search_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

-- Every attempt at a delivery, for the user's deliveries list.
CREATE TABLE webhook_attempts (
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL CHECK (attempt >= 1),
  attempted_at timestamptz NOT NULL,
  status_code integer,
  error text,
  duration_ms integer NOT NULL CHECK (duration_ms >= 0),
  PRIMARY KEY (delivery_id, attempt)
);

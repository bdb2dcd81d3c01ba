-- Orders and purchases: one row from the moment we create the provider's order. Plan purchases
-- belong to a user from the start; a promo order is paid first and claimed by the account that
-- registers with it (user_id set once, under a row lock).
CREATE TABLE purchases (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('plan', 'promo')),
  plan_id text NOT NULL,
  user_id text,
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL DEFAULT 'USD' CHECK (currency = 'USD'),
  credits integer NOT NULL CHECK (credits > 0),
  provider_mode text NOT NULL CHECK (provider_mode IN ('sandbox', 'live', 'test')),
  provider_order_id text UNIQUE,
  capture_id text UNIQUE,
  status text NOT NULL DEFAULT 'created' CHECK (status IN ('created', 'pending', 'completed', 'failed', 'refunded')),
  failure text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  claimed_at timestamptz,
  refunded_at timestamptz,
  refund_id text,
  credits_reversed integer CHECK (credits_reversed >= 0),
  credits_shortfall integer CHECK (credits_shortfall >= 0),
  refunded_by text,
  refund_reason text,
  CHECK (kind = 'promo' OR user_id IS NOT NULL),
  CHECK (status NOT IN ('completed', 'refunded') OR (completed_at IS NOT NULL AND capture_id IS NOT NULL))
);
CREATE INDEX purchases_by_user ON purchases (user_id, completed_at DESC);

-- PayPal webhook deliveries already applied (PayPal retries until it gets a 2xx).
CREATE TABLE paypal_webhook_events (
  id text PRIMARY KEY,
  event_type text NOT NULL,
  resource_id text,
  outcome text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

-- The payment provider mode an admin chose (sandbox or live); one row.
CREATE TABLE payment_settings (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  sandbox_mode boolean NOT NULL,
  updated_by text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Orders of the built-in test checkout (local mode without PayPal credentials): the same
-- create -> approve -> capture -> refund life as a PayPal order, and no money anywhere.
CREATE TABLE test_checkout_orders (
  id text PRIMARY KEY,
  purchase_id uuid NOT NULL UNIQUE,
  amount_value text NOT NULL,
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('CREATED', 'APPROVED', 'COMPLETED')),
  payer_id text,
  capture_id text UNIQUE,
  refund_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

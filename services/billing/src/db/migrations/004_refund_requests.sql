-- A buyer's request for the 7-day refund, one per purchase. Refunded at once when the pack's credits
-- are all still in the balance; otherwise queued for an administrator, who approves (in full or in
-- part) or declines. `processing`: the credits are taken back and the provider's refund is under way
-- (or must be retried); the purchase row lock serialises every step with the webhooks.
CREATE TABLE refund_requests (
  id uuid PRIMARY KEY,
  purchase_id uuid NOT NULL UNIQUE REFERENCES purchases (id),
  user_id text NOT NULL,
  -- Who asked, as they were signed in (the admin queue names them); cleared when the account is erased.
  user_email text,
  user_name text,
  reason text,
  status text NOT NULL CHECK (status IN ('pending', 'processing', 'refunded', 'declined')),
  instant boolean NOT NULL DEFAULT false,
  -- Fixed when the refund starts: what goes back to the buyer and which credits leave the balance.
  amount_cents integer CHECK (amount_cents > 0),
  credits_reversed integer CHECK (credits_reversed >= 0),
  credits_shortfall integer CHECK (credits_shortfall >= 0),
  decided_by text,
  decision_reason text,
  refund_id text,
  -- Why the last refund attempt did not finish; `refused_by_provider` when the provider said no (it
  -- refunded nothing, so the request may still be declined and its credits given back).
  last_error text,
  refused_by_provider boolean NOT NULL DEFAULT false,
  requested_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  refunded_at timestamptz,
  CHECK (status NOT IN ('processing', 'refunded') OR (amount_cents IS NOT NULL AND credits_reversed IS NOT NULL))
);
CREATE INDEX refund_requests_by_status ON refund_requests (status, requested_at);

-- The amount the provider refunded (a partial refund is less than the purchase's amount).
ALTER TABLE purchases ADD COLUMN refunded_cents integer CHECK (refunded_cents > 0);

-- The test checkout's refunds: the amount, like PayPal's refund resource.
ALTER TABLE test_checkout_orders ADD COLUMN refund_amount_value text;

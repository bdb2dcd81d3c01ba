-- Last balance seen on billing.credits, served by /me when billing does not answer in time.
CREATE TABLE last_seen_balances (
  user_id uuid PRIMARY KEY,
  balance integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

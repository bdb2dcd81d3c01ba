-- The stand-in's ledger: a balance that the database itself keeps at zero or above.
CREATE TABLE standin_balances (
  user_id text PRIMARY KEY,
  balance integer NOT NULL CHECK (balance >= 0)
);
CREATE TABLE standin_adjustments (
  idempotency_key text PRIMARY KEY,
  user_id text NOT NULL,
  delta integer NOT NULL,
  balance integer NOT NULL
);

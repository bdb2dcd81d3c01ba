-- The credit ledger: append-only entries, each with a reason, a reference and an idempotency key.
-- A user's balance is the sum of their entries; credit_balances keeps it, maintained only by the
-- trigger below, and its CHECK makes a negative balance impossible whatever the code does.
CREATE TABLE credit_balances (
  user_id text PRIMARY KEY,
  balance integer NOT NULL CHECK (balance >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE credit_ledger (
  id bigserial PRIMARY KEY,
  user_id text NOT NULL,
  delta integer NOT NULL CHECK (delta <> 0),
  balance_after integer NOT NULL CHECK (balance_after >= 0),
  reason text NOT NULL CHECK (reason IN ('signup', 'purchase', 'promo', 'generation', 'generation_refund', 'admin', 'refund')),
  ref text NOT NULL CHECK (ref <> ''),
  idempotency_key text NOT NULL UNIQUE,
  actor_id text,
  note text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_ledger_by_user ON credit_ledger (user_id, id);

-- Applies each new entry to the balance in the same statement. The CHECK on credit_balances refuses
-- a negative result; a balance_after that disagrees with the running balance means the writer did
-- not hold the balance row (a lost update) and is refused as a serialization failure (retryable).
CREATE FUNCTION credit_ledger_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  running integer;
BEGIN
  -- UPDATE first: an INSERT ... ON CONFLICT would check the proposed row (the bare delta) first.
  UPDATE credit_balances SET balance = balance + NEW.delta, updated_at = now() WHERE user_id = NEW.user_id
  RETURNING balance INTO running;
  IF NOT FOUND THEN
    -- A concurrent first entry for the same user loses on the primary key and is retried.
    INSERT INTO credit_balances (user_id, balance, updated_at) VALUES (NEW.user_id, NEW.delta, now())
    RETURNING balance INTO running;
  END IF;
  IF running <> NEW.balance_after THEN
    RAISE EXCEPTION 'ledger entry % expects balance % but the balance is %', NEW.idempotency_key, NEW.balance_after, running
      USING ERRCODE = '40001';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER credit_ledger_apply AFTER INSERT ON credit_ledger FOR EACH ROW EXECUTE FUNCTION credit_ledger_apply();

CREATE FUNCTION credit_ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit_ledger is append-only: add a correcting entry instead';
END
$$;
CREATE TRIGGER credit_ledger_append_only BEFORE UPDATE OR DELETE ON credit_ledger FOR EACH ROW EXECUTE FUNCTION credit_ledger_refuse_change();
CREATE TRIGGER credit_ledger_no_truncate BEFORE TRUNCATE ON credit_ledger FOR EACH STATEMENT EXECUTE FUNCTION credit_ledger_refuse_change();

-- Balances change only through the ledger trigger (trigger depth 2), never by a direct write.
CREATE FUNCTION credit_balances_only_from_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'credit_balances changes only through credit_ledger entries';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER credit_balances_guard BEFORE INSERT OR UPDATE OR DELETE ON credit_balances FOR EACH ROW EXECUTE FUNCTION credit_balances_only_from_ledger();

-- Credits held for a job (lead generation): taken from the balance at once, then settled (the
-- delivered count charged, the rest given back) or released (all given back).
CREATE TABLE credit_reservations (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  amount integer NOT NULL CHECK (amount > 0),
  charged integer CHECK (charged >= 0 AND charged <= amount),
  status text NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'settled', 'released')),
  ref text NOT NULL,
  idempotency_key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  CHECK ((status = 'held') = (finished_at IS NULL))
);
CREATE INDEX credit_reservations_held ON credit_reservations (user_id) WHERE status = 'held';

-- One row per account billing has welcomed: the signup grant and what became of its promo order.
CREATE TABLE signups (
  user_id text PRIMARY KEY,
  promo_order_id text,
  promo_outcome text NOT NULL DEFAULT 'none'
    CHECK (promo_outcome IN ('none', 'claimed', 'claimed_pending_payment', 'already_claimed', 'not_found', 'not_paid')),
  created_at timestamptz NOT NULL DEFAULT now()
);

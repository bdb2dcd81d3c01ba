-- A promo order is bound to the browser that paid for it: the SHA-256 (hex) of a secret handed to
-- that browser at order creation; only a registration presenting the secret claims the order.
-- Orders created before this column existed have none and are claimed as before.
ALTER TABLE purchases ADD COLUMN claim_token_hash text;

-- A registration naming the order without its claim token is refused the credits.
ALTER TABLE signups DROP CONSTRAINT signups_promo_outcome_check;
ALTER TABLE signups ADD CONSTRAINT signups_promo_outcome_check
  CHECK (promo_outcome IN ('none', 'claimed', 'claimed_pending_payment', 'already_claimed', 'not_found', 'not_paid', 'claim_refused'));

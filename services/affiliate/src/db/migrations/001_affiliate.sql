-- One referral code per user (created on user.registered, or on first visit of /affiliate).
CREATE TABLE affiliates (
  user_id text PRIMARY KEY,
  referral_code text NOT NULL UNIQUE,
  name text NOT NULL DEFAULT '',
  email text NOT NULL,
  -- The email with +tags, gmail dots and case removed: two accounts of one person share it.
  canonical_email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX affiliates_canonical_email ON affiliates (canonical_email);

-- The secret that signs referral tokens, generated once unless AFFILIATE_REFERRAL_SECRET is set.
CREATE TABLE affiliate_settings (
  key text PRIMARY KEY,
  value text NOT NULL
);

-- Every registration that came with a referral token, attributed or not (and why not).
CREATE TABLE referrals (
  referred_user_id text PRIMARY KEY,
  referrer_id text REFERENCES affiliates (user_id),
  referral_code text NOT NULL,
  status text NOT NULL CHECK (status IN ('attributed', 'rejected')),
  rejection_reason text CHECK (rejection_reason IN ('self_referral', 'expired', 'bad_signature', 'unknown_code', 'malformed')),
  visited_at timestamptz,
  registered_at timestamptz NOT NULL,
  CHECK ((status = 'attributed') = (rejection_reason IS NULL)),
  CHECK (status = 'rejected' OR referrer_id IS NOT NULL)
);
CREATE INDEX referrals_referrer ON referrals (referrer_id) WHERE status = 'attributed';

-- Billing's purchases as this service saw them (purchase.completed / purchase.refunded, in any order).
CREATE TABLE purchases (
  purchase_id text PRIMARY KEY,
  user_id text NOT NULL,
  plan_id text,
  amount_cents bigint CHECK (amount_cents >= 0),
  refunded_cents bigint NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0),
  completed_at timestamptz,
  refunded_at timestamptz
);
CREATE INDEX purchases_user ON purchases (user_id);

-- Monthly PayPal payout batches; the period makes a batch (and its sender_batch_id) unique.
CREATE TABLE payout_batches (
  id uuid PRIMARY KEY,
  period text NOT NULL UNIQUE,
  sender_batch_id text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('allocated', 'submitting', 'submitted', 'failed', 'empty')),
  mode text NOT NULL CHECK (mode IN ('paypal', 'test')),
  paypal_batch_id text,
  paypal_batch_status text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  submit_started_at timestamptz,
  submitted_at timestamptz
);

-- One line of a batch: what one referrer is paid.
CREATE TABLE payout_items (
  id uuid PRIMARY KEY,
  batch_id uuid NOT NULL REFERENCES payout_batches (id),
  referrer_id text NOT NULL REFERENCES affiliates (user_id),
  receiver text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  UNIQUE (batch_id, referrer_id)
);

-- One commission per purchase of a referred user, ever: a replayed event cannot pay twice.
-- amount_cents is what the referrer is entitled to now (lowered by refunds), paid_cents what payouts
-- sent; a refund after a payout leaves paid_cents above amount_cents, a clawback the next payout nets.
CREATE TABLE commissions (
  id uuid PRIMARY KEY,
  referrer_id text NOT NULL REFERENCES affiliates (user_id),
  referred_user_id text NOT NULL,
  purchase_id text NOT NULL UNIQUE REFERENCES purchases (purchase_id),
  amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
  paid_cents bigint NOT NULL DEFAULT 0 CHECK (paid_cents >= 0),
  status text NOT NULL CHECK (status IN ('pending', 'payable', 'paid', 'reversed')),
  earned_at timestamptz NOT NULL,
  hold_until timestamptz NOT NULL,
  -- The payout item this commission is being paid in, until PayPal accepts it.
  allocated_item_id uuid REFERENCES payout_items (id),
  paid_at timestamptz,
  reversed_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commissions_referrer ON commissions (referrer_id, earned_at DESC);
CREATE INDEX commissions_maturing ON commissions (hold_until) WHERE status = 'pending';
CREATE INDEX commissions_outstanding ON commissions (referrer_id) WHERE amount_cents <> paid_cents;

-- What each payout item paid of each commission (negative for a clawback netted against it).
CREATE TABLE payout_item_lines (
  item_id uuid NOT NULL REFERENCES payout_items (id),
  commission_id uuid NOT NULL REFERENCES commissions (id),
  amount_cents bigint NOT NULL,
  PRIMARY KEY (item_id, commission_id)
);

-- Applications from the /affiliate form (user_id when the applicant was signed in).
CREATE TABLE affiliate_applications (
  id uuid PRIMARY KEY,
  user_id text,
  name text NOT NULL,
  email text NOT NULL,
  website text,
  message text,
  remote_ip text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX affiliate_applications_user ON affiliate_applications (user_id, created_at DESC);

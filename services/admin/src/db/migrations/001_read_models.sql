-- Read models: built only from other services' events, disposable, rebuilt by replaying the topics
-- (docs/admin.md). Nothing here is a source of truth.

-- Which consumer group feeds these tables; a new generation (a fresh database, or a rebuild) reads
-- every topic from the oldest retained event.
CREATE TABLE rm_generation (
  id integer PRIMARY KEY CHECK (id = 1),
  generation text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now()
);

-- One row per user id seen in any event; `created_at` is null until user.registered arrives
-- (a credits.changed may come first: topics are ordered only within themselves).
CREATE TABLE rm_users (
  user_id text PRIMARY KEY,
  name text,
  email text,
  role text NOT NULL DEFAULT 'user',
  status text NOT NULL DEFAULT 'active',
  credits integer NOT NULL DEFAULT 0,
  -- When billing announced the balance above (its event's occurred_at).
  credits_as_of timestamptz,
  created_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- What the user search matches: name and email, lower-cased, on two lines (so a search never
  -- matches across the two). LIKE on this is several times cheaper than ILIKE on both columns.
  search_text text GENERATED ALWAYS AS (lower(coalesce(name, '') || chr(10) || coalesce(email, ''))) STORED
);
-- The user list: registered, not deleted, newest first.
CREATE INDEX rm_users_listed ON rm_users (created_at DESC, user_id DESC) WHERE created_at IS NOT NULL AND status <> 'deleted';
CREATE INDEX rm_users_admins ON rm_users (created_at DESC, user_id DESC) WHERE created_at IS NOT NULL AND status <> 'deleted' AND role = 'admin';

-- Running totals over rm_users, kept by the projection with each change, so the overview and the
-- unfiltered user count never scan the users.
CREATE TABLE rm_user_totals (
  id integer PRIMARY KEY CHECK (id = 1),
  listed integer NOT NULL DEFAULT 0,
  admins integer NOT NULL DEFAULT 0,
  inactive integer NOT NULL DEFAULT 0,
  credits bigint NOT NULL DEFAULT 0
);

CREATE TABLE rm_purchases (
  purchase_id text PRIMARY KEY,
  user_id text NOT NULL,
  plan_id text NOT NULL,
  amount numeric(12, 2) NOT NULL,
  credits integer NOT NULL,
  completed_at timestamptz NOT NULL,
  refunded_amount numeric(12, 2) NOT NULL DEFAULT 0,
  refunded_at timestamptz
);
CREATE INDEX rm_purchases_recent ON rm_purchases (completed_at DESC, purchase_id DESC);

-- The activity feed: one row per scrape, payment and refund, keyed by the event that reported it.
CREATE TABLE rm_activity (
  event_id text PRIMARY KEY,
  type text NOT NULL CHECK (type IN ('scrape', 'payment', 'refund')),
  user_id text NOT NULL,
  occurred_at timestamptz NOT NULL,
  ref text,
  results_count integer,
  credits integer,
  amount numeric(12, 2)
);
CREATE INDEX rm_activity_recent ON rm_activity (occurred_at DESC, event_id DESC);
CREATE INDEX rm_activity_by_type ON rm_activity (type, occurred_at DESC, event_id DESC);

CREATE TABLE rm_contact_submissions (
  submission_id text PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  message text NOT NULL,
  submitted_at timestamptz NOT NULL
);
CREATE INDEX rm_contact_submissions_recent ON rm_contact_submissions (submitted_at DESC, submission_id DESC);

-- Per-UTC-day roll-ups: the overview's totals are sums over these few rows, never over the activity.
CREATE TABLE rm_daily (
  day date PRIMARY KEY,
  signups integer NOT NULL DEFAULT 0,
  purchases integer NOT NULL DEFAULT 0,
  revenue numeric(14, 2) NOT NULL DEFAULT 0,
  refunds integer NOT NULL DEFAULT 0,
  refunded numeric(14, 2) NOT NULL DEFAULT 0,
  scrapes integer NOT NULL DEFAULT 0,
  leads integer NOT NULL DEFAULT 0,
  credits_used integer NOT NULL DEFAULT 0
);

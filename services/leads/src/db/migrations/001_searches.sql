-- One row per lead search a user started. `status` is the outcome; `credits` is where the credits
-- held with billing stand: none (not yet held), held, settled (delivered leads charged, the rest
-- given back) or released (all given back). A search is never finished while its credits are held
-- for long: the sweeper settles any that are.
CREATE TABLE lead_searches (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  industry text NOT NULL,
  location text NOT NULL,
  quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 200),
  status text NOT NULL DEFAULT 'reserving' CHECK (status IN ('reserving', 'running', 'completed', 'failed', 'cancelled')),
  reason text,
  error text,
  credits text NOT NULL DEFAULT 'none' CHECK (credits IN ('none', 'held', 'settled', 'released')),
  reservation_id text,
  -- Delivered leads: what the search charges. Never above the quantity held for it.
  leads_count integer NOT NULL DEFAULT 0 CHECK (leads_count >= 0 AND leads_count <= quantity),
  with_email integer NOT NULL DEFAULT 0,
  with_phone integer NOT NULL DEFAULT 0,
  with_website integer NOT NULL DEFAULT 0,
  credits_used integer NOT NULL DEFAULT 0 CHECK (credits_used >= 0 AND credits_used <= quantity),
  -- The user's balance as billing last reported it for this search (after the hold, then after settling).
  remaining_credits integer,
  places_found integer NOT NULL DEFAULT 0,
  websites_checked integer NOT NULL DEFAULT 0,
  -- The last feed event's sequence number, and the `finished` event's once it is written.
  last_seq integer NOT NULL DEFAULT 0,
  finished_seq integer,
  deadline_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  settled_at timestamptz,
  CHECK ((status IN ('reserving', 'running')) = (finished_at IS NULL))
);
CREATE INDEX lead_searches_history ON lead_searches (user_id, created_at DESC, id DESC);
CREATE INDEX lead_searches_active ON lead_searches (status, deadline_at) WHERE status IN ('reserving', 'running');
CREATE INDEX lead_searches_unsettled ON lead_searches (finished_at) WHERE credits = 'held' AND finished_at IS NOT NULL;

-- The leads a search delivered, in delivery order. `lead_key` is the engine's stable key and
-- `fingerprint` the lead's content: either seen twice within a search is one lead, charged once.
CREATE TABLE leads (
  search_id uuid NOT NULL REFERENCES lead_searches (id),
  position integer NOT NULL CHECK (position >= 1),
  lead_key text NOT NULL,
  fingerprint text NOT NULL,
  name text NOT NULL,
  company text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL,
  website text NOT NULL,
  city text NOT NULL,
  address text,
  country text,
  socials jsonb,
  source text,
  place_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (search_id, position),
  UNIQUE (search_id, lead_key),
  UNIQUE (search_id, fingerprint)
);

-- The live feed of a search (progress, leads, finished), kept so a browser that reconnects
-- (Last-Event-ID) or opens the search later replays exactly what it missed.
CREATE TABLE search_feed (
  search_id uuid NOT NULL REFERENCES lead_searches (id),
  seq integer NOT NULL CHECK (seq >= 1),
  type text NOT NULL CHECK (type IN ('progress', 'leads', 'finished')),
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (search_id, seq)
);

-- Never pay twice: the businesses each user has paid for, by place key (`place:osm:node/1`) and by
-- website (`site:example.com`, the registrable domain, or the host when it has none). The primary key
-- is what makes "already owned?" and "claim it" one atomic step per user: two searches of the same
-- area cannot both claim (and charge) one business. A claim older than the ownership window may be
-- claimed again (and charged again).
CREATE TABLE owned_businesses (
  user_id text NOT NULL,
  business_key text NOT NULL,
  search_id uuid NOT NULL,
  acquired_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, business_key)
);

-- Owned leads a search delivered (include_owned: true; free) and owned businesses it skipped. What a
-- search charges is leads_count - owned_count. engine_quantity is what the engine was asked for: more
-- than the quantity when owned businesses are likely to be skipped.
ALTER TABLE lead_searches
  ADD COLUMN include_owned boolean NOT NULL DEFAULT false,
  ADD COLUMN owned_count integer NOT NULL DEFAULT 0 CHECK (owned_count >= 0),
  ADD COLUMN skipped_owned integer NOT NULL DEFAULT 0 CHECK (skipped_owned >= 0),
  ADD COLUMN engine_quantity integer;
ALTER TABLE lead_searches ADD CONSTRAINT lead_searches_owned_within_delivered CHECK (owned_count <= leads_count);

ALTER TABLE leads ADD COLUMN owned boolean NOT NULL DEFAULT false;

-- Opt-out requests. email (lower-case) and phone (E.164) are suppressed while the request is
-- applied, pending, approved or rejected (a rejection concerns the website only); domain (registrable
-- domain, or host for an IP address) only once approved. Lifting keeps the row, for the record.
CREATE TABLE opt_outs (
  id uuid PRIMARY KEY,
  email text,
  phone text,
  website text,
  domain text,
  reason text,
  status text NOT NULL CHECK (status IN ('applied', 'pending', 'approved', 'rejected', 'lifted')),
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  CHECK (email IS NOT NULL OR phone IS NOT NULL OR domain IS NOT NULL),
  CHECK ((domain IS NULL) = (website IS NULL))
);
CREATE INDEX opt_outs_email ON opt_outs (email) WHERE email IS NOT NULL;
CREATE INDEX opt_outs_phone ON opt_outs (phone) WHERE phone IS NOT NULL;
CREATE INDEX opt_outs_domain ON opt_outs (domain) WHERE domain IS NOT NULL;
CREATE INDEX opt_outs_newest ON opt_outs (created_at DESC, id DESC);

-- A website opt-out covers the host that was asked for and its subdomains, never its parent; only an
-- administrator widens it to the registrable domain (scope 'domain'). `domain` keeps holding what is
-- matched: the host (scope 'host', without `www.`) or the registrable domain (scope 'domain').
ALTER TABLE opt_outs ADD COLUMN scope text CHECK (scope IN ('host', 'domain'));

-- Rows stored so far hold the registrable domain the old code widened every website to, unasked: the
-- person named a host, and the administrator who approved it was never offered anything else. So each
-- becomes what was asked for, the website's host (approved ones stay approved, for that host): a
-- request for `https://sunrisebakery.example.com/` no longer blanks the rest of `example.com`. Where
-- the host cannot be read back from the website as given (an internationalised name, stored in its
-- punycode form), the row keeps its domain and says so with scope 'domain'.
WITH hosts AS (
  SELECT id, regexp_replace(regexp_replace(regexp_replace(
           substring(regexp_replace(lower(btrim(website)), '^[a-z][a-z0-9+.-]*://', '') from '^(?:[^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)'),
           '^\[|\]$', '', 'g'), '\.$', ''), '^www\.', '') AS host
  FROM opt_outs WHERE website IS NOT NULL
)
UPDATE opt_outs o
SET domain = CASE WHEN h.host = o.domain OR right(h.host, length(o.domain) + 1) = '.' || o.domain THEN h.host ELSE o.domain END,
    scope = CASE WHEN h.host = o.domain OR right(h.host, length(o.domain) + 1) = '.' || o.domain THEN 'host' ELSE 'domain' END
FROM hosts h WHERE h.id = o.id;

ALTER TABLE opt_outs ADD CONSTRAINT opt_outs_scope_with_website CHECK ((scope IS NULL) = (website IS NULL));

-- Fields a new search left empty because their owner had opted out (`removed` of the API lead), so
-- its views and exports say why; fields blanked after the search are found when read.
ALTER TABLE leads ADD COLUMN removed jsonb;

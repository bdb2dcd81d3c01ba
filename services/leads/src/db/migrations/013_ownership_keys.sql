-- A business is owned by any of the keys the lead engine merges listings by: besides its place and
-- website, its phone (`phone:+4930123456`) and its name where it stands
-- (`near:<normalised name>@<lat>,<lon>`), which matches the same name within 100 m: near_name is
-- that name, so the rows of one name are found by index and compared by distance.
ALTER TABLE owned_businesses ADD COLUMN IF NOT EXISTS near_name text;
CREATE INDEX IF NOT EXISTS owned_businesses_near ON owned_businesses (user_id, near_name) WHERE near_name IS NOT NULL;

-- A website is its business by its registrable domain whatever the page (`site:example.com/kontakt`
-- was kept with its path): each such claim is kept under the domain too. Pages of the platforms many
-- businesses share (businessKeys.ts, PAGE_PLATFORMS) stay by their path.
INSERT INTO owned_businesses (user_id, business_key, search_id, acquired_at)
SELECT DISTINCT ON (user_id, split_part(business_key, '/', 1)) user_id, split_part(business_key, '/', 1), search_id, acquired_at
FROM owned_businesses
WHERE business_key LIKE 'site:%/%'
  AND split_part(business_key, '/', 1) NOT IN (
    'site:facebook.com', 'site:fb.com', 'site:fb.me', 'site:instagram.com', 'site:instagr.am', 'site:linkedin.com', 'site:twitter.com',
    'site:x.com', 'site:youtube.com', 'site:tiktok.com', 'site:linktr.ee', 'site:google.com', 'site:yelp.com', 'site:wa.me')
ORDER BY user_id, split_part(business_key, '/', 1), acquired_at DESC
ON CONFLICT (user_id, business_key) DO NOTHING;

-- The phones of the leads already claimed, under the claim of the same business (its place row):
-- the same search and the same start of the window. A phone someone opted out is not kept. Stored
-- leads hold no position, so their name-and-position keys start with the next search that finds them.
WITH phones AS (
  SELECT owned.user_id, owned.search_id, owned.acquired_at,
    regexp_replace(regexp_replace(leads.phone, '[[:space:]()./-]', '', 'g'), '^00', '+') AS e164
  FROM leads
  JOIN lead_searches ON lead_searches.id = leads.search_id
  JOIN owned_businesses owned ON owned.user_id = lead_searches.user_id AND owned.business_key = 'place:' || leads.lead_key
  WHERE leads.phone <> ''
)
INSERT INTO owned_businesses (user_id, business_key, search_id, acquired_at)
SELECT DISTINCT ON (user_id, e164) user_id, 'phone:' || e164, search_id, acquired_at
FROM phones
WHERE e164 ~ '^\+[1-9][0-9]{5,14}$'
  AND NOT EXISTS (SELECT 1 FROM opt_outs WHERE opt_outs.phone = phones.e164 AND opt_outs.status <> 'lifted')
ORDER BY user_id, e164, acquired_at DESC
ON CONFLICT (user_id, business_key) DO NOTHING;

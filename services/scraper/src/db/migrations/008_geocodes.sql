-- Geocoded locations, shared by every replica: the same location text within
-- SCRAPER_GEOCODE_CACHE_HOURS reuses the stored area rather than asking Nominatim again (its usage
-- policy asks for caching). Keyed by the trimmed, lower-case text.
CREATE TABLE scraper_geocodes (
  location_key text PRIMARY KEY,
  area jsonb NOT NULL,
  geocoded_at timestamptz NOT NULL DEFAULT now()
);

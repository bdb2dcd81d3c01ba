-- Provider requests of the places sources (nominatim: geocoding; osm, google, decodo), one row a
-- UTC day and source, added to by every replica (additive updates), read by the admin Proxy Stats
-- tab for the period it asks for and cleared by its reset.
CREATE TABLE scraper_places_usage (
  day date NOT NULL,
  source text NOT NULL,
  requests bigint NOT NULL DEFAULT 0,
  places bigint NOT NULL DEFAULT 0,
  errors bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (day, source)
);

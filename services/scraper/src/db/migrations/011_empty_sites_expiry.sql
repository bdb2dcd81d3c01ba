-- Rows older than SCRAPER_EMPTY_SITE_CACHE_HOURS are deleted as new findings are recorded: by this index,
-- not by reading the whole table.
CREATE INDEX scraper_empty_sites_found_empty_at ON scraper_empty_sites (found_empty_at);

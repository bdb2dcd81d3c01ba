-- Websites whose last complete crawl found no contact details, and when: a monitor's run skips a site
-- found empty within SCRAPER_EMPTY_SITE_CACHE_HOURS rather than crawling it again. Keyed by the site
-- key lead intake matches businesses by (registrable domain, or host, plus path). A business website
-- only: no user or search refers to it.
CREATE TABLE scraper_empty_sites (
  site_key text PRIMARY KEY,
  found_empty_at timestamptz NOT NULL DEFAULT now()
);
-- A monitor's run (only those reuse what is known of the area; a search always looks afresh).
ALTER TABLE scraper_jobs ADD COLUMN monitor_run boolean NOT NULL DEFAULT false;

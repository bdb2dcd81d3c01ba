-- The trace of the request that asked for the search, so its run (on whichever replica claims it)
-- and the leads it sends join that trace.
ALTER TABLE scraper_jobs ADD COLUMN IF NOT EXISTS traceparent text;

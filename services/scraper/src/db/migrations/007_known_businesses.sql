-- The businesses the user already has (lead intake's keys) when the search skips them: the worker
-- neither crawls nor counts a place with one of these keys, and counts it in known_skipped.
ALTER TABLE scraper_jobs
  ADD COLUMN known_business_keys jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN known_skipped integer NOT NULL DEFAULT 0;

-- The quota an admin set, next to what is left of it, so the limit survives a restart too
-- (NULL in snapshots saved before it was kept).
ALTER TABLE scraper_quota_snapshot ADD COLUMN IF NOT EXISTS limit_requests bigint CHECK (limit_requests >= 0);

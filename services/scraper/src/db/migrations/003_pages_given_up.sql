-- Pages fetched but given up while reading them (nested too deep, over the parsing time budget).
ALTER TABLE scraper_usage_totals ADD COLUMN IF NOT EXISTS pages_given_up bigint NOT NULL DEFAULT 0;

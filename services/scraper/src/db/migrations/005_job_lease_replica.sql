-- Which replica (hostname and port, or the embedded database's one process) holds a job's lease,
-- besides which process: a replica that restarts takes back at once the jobs its previous process
-- held, instead of waiting for their leases to run out (issue 23, defect 5).
ALTER TABLE scraper_jobs ADD COLUMN IF NOT EXISTS lease_replica text;

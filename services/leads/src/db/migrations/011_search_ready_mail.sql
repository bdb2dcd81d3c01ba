-- When each search started, for "your leads are ready" (sent for a search that ran more than a
-- minute): recorded from search.requested, deleted at search.completed or after a day.
CREATE TABLE search_ready_pending (
  search_id text PRIMARY KEY,
  user_id text NOT NULL,
  requested_at timestamptz NOT NULL
);
CREATE INDEX search_ready_pending_age ON search_ready_pending (requested_at);

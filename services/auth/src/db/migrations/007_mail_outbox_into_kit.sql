-- Auth's emails move to the kit's mailer table (each service now sends its own): every row, sent or
-- not, keeps its place in the queue; the old table goes.
INSERT INTO kit_mail_outbox (kind, recipient, subject, text_body, html_body, attempts, next_attempt_at, lease_owner, give_up_at, sent_at, failed_at, last_error, created_at)
  SELECT kind, recipient, subject, text_body, html_body, attempts, next_attempt_at, lease_owner, give_up_at, sent_at, failed_at, last_error, created_at
  FROM mail_outbox ORDER BY id;
DROP TABLE mail_outbox;
-- "Your leads are ready" is the leads service's email now: it keeps its own searches in progress.
DROP TABLE searches_in_progress;

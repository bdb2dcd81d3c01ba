-- A service's emails (the kit's mailer): written in the transaction of the change they tell about and
-- sent by a LeasedQueue with retries. The text is cleared once sent or given up (it may hold a reset
-- link); user_id lets the service erase a deleted account's address.
CREATE TABLE IF NOT EXISTS kit_mail_outbox (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  recipient text NOT NULL,
  user_id text,
  subject text NOT NULL,
  text_body text,
  html_body text,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_owner text,
  give_up_at timestamptz NOT NULL,
  sent_at timestamptz,
  failed_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS kit_mail_outbox_due ON kit_mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;
CREATE INDEX IF NOT EXISTS kit_mail_outbox_user ON kit_mail_outbox (user_id);
CREATE INDEX IF NOT EXISTS kit_mail_outbox_recipient ON kit_mail_outbox (recipient);

-- Bumped when the password changes (reset or change): access tokens carry the generation they were
-- issued under, and an older one is refused, so a reset ends every existing session.
ALTER TABLE users ADD COLUMN session_generation integer NOT NULL DEFAULT 0;

-- Only the SHA-256 of a reset token is kept; the token itself is in the email alone.
CREATE TABLE password_reset_tokens (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX password_reset_tokens_user ON password_reset_tokens (user_id);

-- Emails to send, written in the transaction of the change they tell about and sent by a
-- background loop with retries. The text is cleared once sent or given up (it may hold a reset link).
CREATE TABLE mail_outbox (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  recipient text NOT NULL,
  subject text NOT NULL,
  text_body text,
  html_body text,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  give_up_at timestamptz NOT NULL,
  sent_at timestamptz,
  failed_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;

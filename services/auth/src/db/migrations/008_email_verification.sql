-- An address is verified once its owner opens the link mailed to it at registration. ADMIN_EMAILS
-- grants the admin role only to a verified address: registering first proves nothing.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz;

-- Only the SHA-256 of a verification token is kept; the token itself is in the email alone.
CREATE TABLE email_verification_tokens (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX email_verification_tokens_user ON email_verification_tokens (user_id);

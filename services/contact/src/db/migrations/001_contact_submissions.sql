-- Messages from the public contact form. Only verified submissions are stored.
CREATE TABLE contact_submissions (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  message text NOT NULL,
  remote_ip text,
  user_agent text,
  -- The site the robot check was solved on, as the verifier reported it.
  recaptcha_hostname text,
  -- SHA-256 of the robot-check token: a token buys one message, even if replayed at once.
  token_hash text NOT NULL UNIQUE,
  submitted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_submissions_recent ON contact_submissions (submitted_at DESC);

-- API keys: only the SHA-256 of a key is kept (the key is shown once, at creation); the prefix
-- tells a user's keys apart in lists and logs. A revoked key keeps its row for the user's record.
CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  name text NOT NULL,
  prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_user ON api_keys (user_id, created_at);

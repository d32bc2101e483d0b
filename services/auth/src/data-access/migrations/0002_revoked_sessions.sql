-- Sessions ended by logout (and single tokens without a session), kept until the last token they cover has
-- expired. With admins.tokens_valid_from (disable, password reset and change) this is every revocation in
-- force: the shared revocation store (Redis, or the all-in-one's memory) is a cache refilled from these two.
CREATE TABLE revoked_tokens (
  kind text NOT NULL CHECK (kind IN ('session', 'token')),
  id text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (kind, id)
);
CREATE INDEX revoked_tokens_expires_at ON revoked_tokens (expires_at);

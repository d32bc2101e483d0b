-- Each admin session (a sign-in and every token renewed from it), so an admin can see where they are signed in
-- and end a session. The row is written at sign-in and kept current by renewals and, at most once a minute, by
-- the calls the session makes. Ending a session here is only the record: its tokens are refused through the
-- revocations (revoked_tokens, admins.tokens_valid_from).
CREATE TABLE admin_sessions (
  -- The `sid` claim of the session's tokens.
  id uuid PRIMARY KEY,
  admin_id uuid NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
  user_agent text NOT NULL DEFAULT '',
  address text NOT NULL DEFAULT '',
  started_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  -- The newest token of the session: issued (epoch seconds, compared with admins.tokens_valid_from) and expiry.
  token_issued_at bigint NOT NULL,
  token_expires_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX admin_sessions_admin_active ON admin_sessions (admin_id, token_expires_at) WHERE ended_at IS NULL;

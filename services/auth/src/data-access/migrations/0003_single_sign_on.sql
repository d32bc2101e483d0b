-- Sign-ins through the institution's OpenID Provider, from the redirect to the provider until the web app takes
-- its Readiness session. Each row is found by the SHA-256 of the random value in the browser's HttpOnly cookie
-- (the cookie itself is never stored) and is taken exactly once: DELETE ... RETURNING, so a replayed callback
-- or a second exchange finds nothing. Rows older than ten minutes are worthless and swept.
CREATE TABLE sso_sign_ins (
  binding_hash bytea PRIMARY KEY,
  -- 'pending': sent to the provider, waiting for its callback; 'signed-in': the callback named an admin.
  stage text NOT NULL CHECK (stage IN ('pending', 'signed-in')),
  state text NOT NULL,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  -- The in-app page the admin was going to; checked again by the web app.
  return_to text NOT NULL,
  admin_id uuid REFERENCES admins (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sso_sign_ins_expires_at ON sso_sign_ins (expires_at);

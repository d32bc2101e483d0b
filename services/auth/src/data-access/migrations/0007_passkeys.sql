-- Passkeys (WebAuthn credentials) of admins: a second factor after the password, and a sign-in of their own
-- without one. The public key is kept as the authenticator sent it (COSE); `sign_count` is the authenticator's
-- counter at its last use, raised in one UPDATE that also refuses a counter that went backwards (a cloned key).
CREATE TABLE admin_passkeys (
  id uuid PRIMARY KEY,
  admin_id uuid NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
  -- The credential's id as the browser names it (base64url); unique across every admin.
  credential_id text NOT NULL UNIQUE,
  public_key bytea NOT NULL,
  sign_count bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  -- What the admin called it ('Work laptop'), shown on their Security page.
  name text NOT NULL,
  -- Synced between devices by its provider (a multi-device credential), as the authenticator said.
  backed_up boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX admin_passkeys_admin_id ON admin_passkeys (admin_id);

-- The random challenges handed to the browser for one ceremony each: registering a passkey, proving one as the
-- second factor of a sign-in (for the admin whose password was right), or signing in with one alone (no admin
-- known until the credential says whose it is). A challenge is taken (deleted) by the response that answers it,
-- so a response is accepted once, even when it is sent twice at the same moment.
CREATE TABLE passkey_challenges (
  challenge text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('register', 'second-factor', 'sign-in')),
  admin_id uuid REFERENCES admins (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX passkey_challenges_expires_at ON passkey_challenges (expires_at);

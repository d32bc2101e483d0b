-- Second factors of password sign-in. An authenticator app (TOTP, RFC 6238) per admin: the row exists from the
-- start of enrolment and counts once `confirmed_at` is set by a first good code. `last_time_step` is the step of
-- the last code accepted: a code is taken by raising it in one UPDATE, so a code is never accepted twice, not even
-- by two requests at once.
CREATE TABLE admin_totp (
  admin_id uuid PRIMARY KEY REFERENCES admins (id) ON DELETE CASCADE,
  -- The key, sealed with EVENT_SECRETS_KEY (AES-256-GCM), never stored in clear.
  secret text NOT NULL,
  confirmed_at timestamptz,
  last_time_step bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One-time recovery codes, stored as SHA-256 digests (each code has 60 random bits and guessing is throttled).
-- A code is used by setting `used_at` where it is still null: once, even under a parallel burst.
CREATE TABLE admin_recovery_codes (
  admin_id uuid NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
  code_hash bytea NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (admin_id, code_hash)
);

-- Between a right password and the second factor: the SHA-256 of the opaque challenge the client holds. 'verify'
-- asks for a code of a confirmed factor; 'enrol' lets an admin who has none, when every admin must have one, set
-- up an authenticator app before any session exists. Taken (deleted) by the step that issues the session.
CREATE TABLE mfa_challenges (
  id_hash bytea PRIMARY KEY,
  admin_id uuid NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('verify', 'enrol')),
  expires_at timestamptz NOT NULL
);
CREATE INDEX mfa_challenges_expires_at ON mfa_challenges (expires_at);

-- The super admins' security policy: one row.
CREATE TABLE security_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  mfa_required boolean NOT NULL DEFAULT false
);
INSERT INTO security_settings (id) VALUES (true);

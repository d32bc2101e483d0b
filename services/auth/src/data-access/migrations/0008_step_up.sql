-- A fresh proof of the person (step-up, "sudo mode") before anyone changes how an admin proves who they are: the
-- password, a code of their authenticator app or one of their passkeys, given within the last few minutes in this
-- very session. A sign-in is such a proof, so a session starts proved at its sign-in; sessions from before this
-- migration have none and prove themselves at their first change.
ALTER TABLE admin_sessions ADD COLUMN reauthenticated_at timestamptz;

-- The passkey ceremony of that proof has challenges of its own.
ALTER TABLE passkey_challenges DROP CONSTRAINT passkey_challenges_purpose_check;
ALTER TABLE passkey_challenges ADD CONSTRAINT passkey_challenges_purpose_check
  CHECK (purpose IN ('register', 'second-factor', 'sign-in', 'step-up'));

-- Administrator accounts. E-mail is stored lower-cased, so the unique index makes it unique case-insensitively.
CREATE TABLE admins (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL CHECK (email = lower(email)),
  password_hash text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'super_admin')),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  must_change_password boolean NOT NULL DEFAULT false,
  -- Tokens issued (iat, epoch seconds) before this are refused; survives a loss of the revocation store.
  tokens_valid_from bigint NOT NULL DEFAULT 0,
  last_login timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX admins_email_key ON admins (email);
CREATE INDEX admins_active_super_admins ON admins (id) WHERE role = 'super_admin' AND status = 'active';

-- Who did what to whom, written in the same transaction as the action. Names and e-mails are copied so an
-- entry keeps saying what was true at the time.
CREATE TABLE audit_log (
  id uuid PRIMARY KEY,
  actor_id uuid,
  actor_name text,
  actor_email text,
  action text NOT NULL,
  target_id uuid,
  target_name text,
  target_email text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- Millisecond precision: the `before` cursor of the audit API travels as an ISO time.
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp())
);
CREATE INDEX audit_log_created_at ON audit_log (created_at DESC, id DESC);

-- Invited students. The e-mail is stored trimmed and lower-cased, so the unique index is case-insensitive.
-- The invitation token itself is never stored readable: `token_hash` (SHA-256) finds a student from a link,
-- `sealed_token` (AES-256-GCM under EVENT_SECRETS_KEY) lets the admin list show and copy the link.
CREATE TABLE students (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  email text NOT NULL CHECK (email = lower(btrim(email))),
  phone_number text,
  status text NOT NULL DEFAULT 'invited' CHECK (status IN ('invited', 'started', 'completed')),
  extra_time_percent integer NOT NULL DEFAULT 0 CHECK (extra_time_percent BETWEEN 0 AND 300),
  token_hash bytea NOT NULL,
  sealed_token text NOT NULL,
  invited_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT students_email UNIQUE (email),
  CONSTRAINT students_token_hash UNIQUE (token_hash)
);

-- The list: newest first, optionally one status; search is a substring of name or e-mail.
CREATE INDEX students_created ON students (created_at DESC, id DESC);
CREATE INDEX students_status_created ON students (status, created_at DESC, id DESC);

-- The active assessment's title and time limit, kept from assessment.version.published.v1 for the mail.
CREATE TABLE active_assessment (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  version integer NOT NULL,
  title text NOT NULL,
  time_limit_minutes integer NOT NULL
);

-- Who did what to which student, when.
CREATE TABLE student_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id text NOT NULL,
  action text NOT NULL,
  student_id uuid,
  details jsonb NOT NULL DEFAULT '{}'::jsonb
);

CREATE INDEX student_audit_at ON student_audit (at DESC);

-- Every saved assessment version, whole (sections and questions with the answer key as JSON). Versions are never
-- rewritten: a save adds one, a roll-back only moves the active flag. At most one version is active.
CREATE TABLE assessment_versions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  version integer NOT NULL UNIQUE CHECK (version >= 1),
  is_active boolean NOT NULL DEFAULT false,
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  time_limit integer NOT NULL CHECK (time_limit >= 1),
  passing_score integer NOT NULL CHECK (passing_score BETWEEN 0 AND 100),
  sections jsonb NOT NULL,
  questions jsonb NOT NULL,
  change_notes text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Empty for the seeded first version.
  created_by_id text NOT NULL DEFAULT '',
  created_by_name text NOT NULL DEFAULT ''
);

CREATE UNIQUE INDEX assessment_versions_one_active ON assessment_versions (is_active) WHERE is_active;
CREATE INDEX assessment_versions_questions ON assessment_versions USING gin (questions jsonb_path_ops);

-- Question files uploaded by admins, stored in object storage under `filename` (server-generated).
CREATE TABLE assessment_files (
  filename text PRIMARY KEY,
  original_name text NOT NULL,
  size bigint NOT NULL,
  mimetype text NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  uploaded_by_id text NOT NULL DEFAULT ''
);

-- Names of admins, kept from auth's admin events, for the createdBy of versions.
CREATE TABLE admin_names (
  admin_id text PRIMARY KEY,
  name text NOT NULL
);

-- Who changed what, when: every save, activation, upload and file removal.
CREATE TABLE assessment_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id text NOT NULL,
  actor_name text NOT NULL DEFAULT '',
  action text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}'::jsonb
);

CREATE INDEX assessment_audit_at ON assessment_audit (at DESC);

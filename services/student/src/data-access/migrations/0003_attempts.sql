-- Every assessment version, whole (answer key included), from assessment.version.published.v1. The active one is
-- the version most recently published as active (`active_since`, the event's time), so a roll-back to an earlier
-- version and events that arrive out of order both end on the version the assessment service made active last.
-- Students are served a view of `content` without the answer key; attempts are pinned to a version id.
CREATE TABLE assessment_versions (
  version_id text PRIMARY KEY,
  version integer NOT NULL,
  title text NOT NULL,
  time_limit_minutes integer NOT NULL,
  content jsonb NOT NULL,
  active_since timestamptz,
  received_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX assessment_versions_active ON assessment_versions (active_since DESC NULLS LAST);

-- The versions table names the active assessment now (title and time limit for the invitation mail included).
DROP TABLE active_assessment;

-- One attempt per Start. `deadline_at` is fixed at start (time limit x (1 + extra time)); `answers` is the newest
-- autosave (`seq`), `deadline_answers` the answers as they stood at the last autosave made before the deadline,
-- which a submit later than the grace period and the deadline job grade instead.
-- status: in_progress → submitted (waiting for its result) → scored.
CREATE TABLE attempts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  student_id uuid NOT NULL REFERENCES students (id) ON DELETE CASCADE,
  attempt_number integer NOT NULL,
  version_id text NOT NULL REFERENCES assessment_versions (version_id),
  status text NOT NULL DEFAULT 'in_progress' CHECK (status IN ('in_progress', 'submitted', 'scored')),
  started_at timestamptz NOT NULL DEFAULT now(),
  deadline_at timestamptz NOT NULL,
  seq bigint NOT NULL DEFAULT 0,
  answers jsonb NOT NULL DEFAULT '[]'::jsonb,
  saved_at timestamptz,
  deadline_answers jsonb NOT NULL DEFAULT '[]'::jsonb,
  submitted_at timestamptz,
  time_spent_minutes integer,
  finalised_by text CHECK (finalised_by IN ('student', 'deadline')),
  graded_from_autosave boolean NOT NULL DEFAULT false,
  idempotency_key text,
  CONSTRAINT attempts_number UNIQUE (student_id, attempt_number)
);

-- Two tabs pressing Start at once: only one attempt in progress per student, whatever the race.
CREATE UNIQUE INDEX attempts_one_in_progress ON attempts (student_id) WHERE status = 'in_progress';
-- The deadline job's scan.
CREATE INDEX attempts_deadline ON attempts (deadline_at) WHERE status = 'in_progress';
CREATE UNIQUE INDEX attempts_idempotency_key ON attempts (student_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;

-- The answer file of a file_upload question, one per (attempt, question), in the private bucket under `object_key`.
CREATE TABLE attempt_files (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  attempt_id uuid NOT NULL REFERENCES attempts (id) ON DELETE CASCADE,
  question_id text NOT NULL,
  object_key text NOT NULL,
  original_name text NOT NULL,
  size bigint NOT NULL,
  mimetype text NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT attempt_files_question UNIQUE (attempt_id, question_id)
);

-- The student's copy of their results, from results.result.recorded.v1 (one per attempt).
CREATE TABLE results (
  id text PRIMARY KEY,
  attempt_id uuid NOT NULL UNIQUE,
  student_id uuid NOT NULL REFERENCES students (id) ON DELETE CASCADE,
  passed boolean NOT NULL,
  completed_at timestamptz NOT NULL,
  body jsonb NOT NULL
);

CREATE INDEX results_student ON results (student_id, completed_at DESC);

-- A copy of every assessment version, kept from assessment.version.published.v1 (answer key included): a result
-- is scored against the version the student took. `activated_at` is the occurred-at of the newest event that
-- made the version active; the active version is the one activated last.
CREATE TABLE versions (
  version_id text PRIMARY KEY,
  version integer NOT NULL,
  title text NOT NULL,
  description text NOT NULL,
  time_limit_minutes integer NOT NULL,
  passing_score integer NOT NULL,
  sections jsonb NOT NULL,
  questions jsonb NOT NULL,
  created_at timestamptz,
  activated_at timestamptz
);

CREATE INDEX versions_activated ON versions (activated_at DESC NULLS LAST, version DESC);
CREATE INDEX versions_version ON versions (version);

-- The students the dashboard counts, kept from the student events. A student's figures: a pending invitation
-- until an attempt starts or is scored; in progress while the newest attempt started is newer than the newest
-- scored. Name and e-mail are absent until the invitation event arrives (events of different queues may come
-- in any order).
CREATE TABLE students (
  student_id text PRIMARY KEY,
  name text,
  email text,
  invited_at timestamptz,
  started boolean NOT NULL DEFAULT false,
  started_attempt integer NOT NULL DEFAULT 0,
  scored_attempt integer NOT NULL DEFAULT 0
);

-- Students erased on student.student.deleted.v1: only the id, so a late event about them recreates nothing.
CREATE TABLE erased_students (
  student_id text PRIMARY KEY,
  erased_at timestamptz NOT NULL DEFAULT now()
);

-- One result per attempt. `sections` and `answers` are the scored figures (see docs/scoring.md).
CREATE TABLE results (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  attempt_id text NOT NULL,
  student_id text NOT NULL,
  student_name text NOT NULL,
  student_email text NOT NULL,
  version_id text NOT NULL,
  version integer NOT NULL,
  assessment_title text NOT NULL,
  passing_score integer NOT NULL,
  score integer NOT NULL,
  total_points integer NOT NULL,
  percentage integer NOT NULL,
  passed boolean NOT NULL,
  attempt_number integer NOT NULL,
  assessment_code text NOT NULL,
  started_at timestamptz,
  completed_at timestamptz NOT NULL,
  time_spent_minutes integer NOT NULL DEFAULT 0,
  sections jsonb NOT NULL,
  answers jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT results_attempt UNIQUE (attempt_id),
  CONSTRAINT results_assessment_code UNIQUE (assessment_code)
);

-- The list sorts by completion, name, score (percentage, then points) or code, all results or one status; the
-- id breaks ties. Every combination has its index, read forwards or backwards, holding the id: a page is found
-- in the index alone.
CREATE INDEX results_completed ON results (completed_at, id);
CREATE INDEX results_name ON results (student_name, id);
CREATE INDEX results_score ON results (percentage, score, id);
CREATE INDEX results_passed_completed ON results (passed, completed_at, id);
CREATE INDEX results_passed_name ON results (passed, student_name, id);
CREATE INDEX results_passed_score ON results (passed, percentage, score, id);
CREATE INDEX results_code ON results (assessment_code, id);
CREATE INDEX results_passed_code ON results (passed, assessment_code, id);
CREATE INDEX results_student ON results (student_id);
CREATE INDEX results_version ON results (version_id);

-- Substring search on name or e-mail (`ILIKE '%…%'`) through trigram indexes. pg_trgm is a trusted extension
-- (PostgreSQL 13+): the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX results_name_trgm ON results USING gin (student_name gin_trgm_ops);
CREATE INDEX results_email_trgm ON results USING gin (student_email gin_trgm_ops);

-- The dashboard's and the list's figures over everything, kept by statement triggers in the transaction of every
-- change, so reading them is 16 rows and never a count over the tables. Each statement adds its change to one of
-- 16 slots chosen at random: concurrent scoring transactions rarely wait for each other's row lock, and a bulk
-- statement updates one slot once (a row updated once per inserted row would grow a version chain in the
-- transaction and cost quadratic time).
CREATE TABLE figures (
  slot smallint PRIMARY KEY CHECK (slot BETWEEN 0 AND 15),
  students bigint NOT NULL DEFAULT 0,
  pending_invites bigint NOT NULL DEFAULT 0,
  in_progress bigint NOT NULL DEFAULT 0,
  results bigint NOT NULL DEFAULT 0,
  passed bigint NOT NULL DEFAULT 0,
  percentage_sum bigint NOT NULL DEFAULT 0
);
INSERT INTO figures (slot) SELECT generate_series(0, 15);

CREATE FUNCTION count_students() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- Drawn once: random() in the WHERE clause would be drawn again for every row it compares.
  target smallint := floor(random() * 16);
  d_students bigint := 0;
  d_pending bigint := 0;
  d_progress bigint := 0;
  o_students bigint := 0;
  o_pending bigint := 0;
  o_progress bigint := 0;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT count(*), count(*) FILTER (WHERE NOT started AND scored_attempt = 0),
           count(*) FILTER (WHERE started_attempt > scored_attempt)
      INTO d_students, d_pending, d_progress FROM new_rows;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT count(*), count(*) FILTER (WHERE NOT started AND scored_attempt = 0),
           count(*) FILTER (WHERE started_attempt > scored_attempt)
      INTO o_students, o_pending, o_progress FROM old_rows;
  END IF;
  IF d_students <> o_students OR d_pending <> o_pending OR d_progress <> o_progress THEN
    UPDATE figures SET students = students + d_students - o_students,
      pending_invites = pending_invites + d_pending - o_pending, in_progress = in_progress + d_progress - o_progress
    WHERE slot = target;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER students_inserted AFTER INSERT ON students
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_students();
CREATE TRIGGER students_updated AFTER UPDATE ON students
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_students();
CREATE TRIGGER students_deleted AFTER DELETE ON students
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_students();

CREATE FUNCTION count_results() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target smallint := floor(random() * 16);
  sign integer := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
  d_results bigint;
  d_passed bigint;
  d_sum bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*), count(*) FILTER (WHERE passed), coalesce(sum(percentage), 0)
      INTO d_results, d_passed, d_sum FROM new_rows;
  ELSE
    SELECT count(*), count(*) FILTER (WHERE passed), coalesce(sum(percentage), 0)
      INTO d_results, d_passed, d_sum FROM old_rows;
  END IF;
  IF d_results > 0 THEN
    UPDATE figures SET results = results + sign * d_results, passed = passed + sign * d_passed,
      percentage_sum = percentage_sum + sign * d_sum
    WHERE slot = target;
  END IF;
  RETURN NULL;
END $$;

-- Results are never updated, only recorded and deleted.
CREATE TRIGGER results_inserted AFTER INSERT ON results
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_results();
CREATE TRIGGER results_deleted AFTER DELETE ON results
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_results();

-- Who deleted which result or asked for its certificate again, when. The student is named by id only.
CREATE TABLE results_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id text NOT NULL,
  action text NOT NULL,
  result_id uuid,
  student_id text
);

CREATE INDEX results_audit_at ON results_audit (at DESC);

-- Every assessment version, kept from assessment.version.published.v1: the report's question texts and options.
CREATE TABLE assessment_versions (
  version_id text PRIMARY KEY,
  version integer NOT NULL,
  title text NOT NULL,
  sections jsonb NOT NULL,
  questions jsonb NOT NULL
);

-- Every scored result, kept from results.result.recorded.v1: what the PDF report and the certificate show.
CREATE TABLE results (
  result_id text PRIMARY KEY,
  attempt_id text NOT NULL,
  student_id text NOT NULL,
  name text NOT NULL,
  email text NOT NULL,
  score integer NOT NULL,
  total_points integer NOT NULL,
  percentage integer NOT NULL,
  passed boolean NOT NULL,
  attempt_number integer NOT NULL,
  assessment_code text NOT NULL,
  completed_at timestamptz NOT NULL,
  version_id text NOT NULL,
  version integer NOT NULL,
  passing_score integer NOT NULL,
  assessment_title text NOT NULL,
  sections jsonb NOT NULL,
  answers jsonb NOT NULL
);

CREATE INDEX results_student ON results (student_id);

-- One certificate per passed result. `pending` until its PDF is stored and report.certificate.issued.v1 is in the
-- outbox (the same transaction turns it `issued`); `claimed_until` is the lease of the worker rendering it.
CREATE TABLE certificates (
  result_id text PRIMARY KEY REFERENCES results (result_id) ON DELETE CASCADE,
  student_id text NOT NULL,
  code text NOT NULL,
  object_key text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'issued')),
  awarded_at timestamptz NOT NULL,
  issued_at timestamptz,
  claimed_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  CONSTRAINT certificates_code UNIQUE (code)
);

CREATE INDEX certificates_pending ON certificates (awarded_at) WHERE status = 'pending';
CREATE INDEX certificates_student ON certificates (student_id);

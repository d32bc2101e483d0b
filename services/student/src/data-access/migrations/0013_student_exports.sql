-- Subject-access exports (issue 46): an administrator asks for everything the product holds about a student; every
-- service that keeps student data answers over the bus with its part (`<service>.student-export.answered.v1`), kept
-- here until the ZIP is downloaded and for at most the export's lifetime (STUDENT_EXPORT_TTL_HOURS). The ZIP itself
-- is never stored: it is made from the parts, the student's own rows and the bucket's files when downloaded.
-- Erasing the student erases their exports (the cascade).
CREATE TABLE student_exports (
  id uuid PRIMARY KEY,
  student_id uuid NOT NULL REFERENCES students (id) ON DELETE CASCADE,
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX student_exports_student ON student_exports (student_id, requested_at DESC);

CREATE TABLE student_export_parts (
  export_id uuid NOT NULL REFERENCES student_exports (id) ON DELETE CASCADE,
  service text NOT NULL,
  -- [{ path, description, json | objectKey }] as the service sent them.
  files jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (export_id, service)
);

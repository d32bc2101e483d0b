-- Students erased on student.student.deleted.v1, and when: only the id, no personal data. A result recorded for them
-- afterwards (held while students waited at the peak, or redelivered) then writes no copy and no certificate.
-- Expand-only: an older replica neither reads nor writes it.
CREATE TABLE erased_students (
  student_id text PRIMARY KEY,
  erased_at timestamptz NOT NULL DEFAULT now()
);

-- Students erased on student.student.deleted.v1, and when: only the id, no personal data. A mail about them that
-- arrives afterwards (an invitation, a reminder or a certificate held while students waited at the peak, or
-- redelivered) is then neither logged nor sent. Expand-only: an older replica neither reads nor writes it.
CREATE TABLE erased_students (
  student_id text PRIMARY KEY,
  erased_at timestamptz NOT NULL DEFAULT now()
);

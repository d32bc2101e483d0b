-- Students who came in from an LMS (LTI 1.3): one student per LMS identity, the platform's issuer and the person's
-- `sub` there, so a second launch reaches the same student and attempt. Erasing the student erases the identity.
CREATE TABLE lti_identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  student_id uuid NOT NULL REFERENCES students (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX lti_identities_student ON lti_identities (student_id);

-- Launch tickets already taken: each opens a student's page once.
CREATE TABLE lti_launch_tickets (
  launch_id uuid PRIMARY KEY,
  used_at timestamptz NOT NULL DEFAULT now()
);

-- A student from an LMS that gives no e-mail (or one another student already has) is kept with an empty e-mail:
-- unique among the e-mails there are.
ALTER TABLE students DROP CONSTRAINT students_email;
CREATE UNIQUE INDEX students_email ON students (email) WHERE email <> '';

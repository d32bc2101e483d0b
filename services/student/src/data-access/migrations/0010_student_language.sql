-- Every student in their own language (issue 27). Expand-only: null is "not chosen" (every student and attempt from
-- before), which reads as the browser's language on the pages and as English in mails and certificates.
--   students.language: chosen by an administrator at invitation, then by the student's last switch;
--   attempts.language: the language the attempt is taken in (set at Start, changed by a switch while it runs); the
--   result's mail and certificate go in it.
ALTER TABLE students
  ADD COLUMN language text CHECK (language IN ('en', 'es', 'fr', 'pt', 'ar'));
ALTER TABLE attempts
  ADD COLUMN language text CHECK (language IN ('en', 'es', 'fr', 'pt', 'ar'));

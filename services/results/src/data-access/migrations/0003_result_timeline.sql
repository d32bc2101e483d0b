-- The attempt's timeline (issue 26), as student.attempt.submitted.v1 carried it: facts for the result detail and
-- the PDF report, never part of the score. Expand-only: an older replica neither reads nor writes it, and results
-- recorded before it have none.
ALTER TABLE results ADD COLUMN timeline jsonb NOT NULL DEFAULT '[]'::jsonb;

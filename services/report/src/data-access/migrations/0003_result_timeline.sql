-- The attempt's timeline on the copy of each result (issue 26), for the PDF report: facts, never part of the score.
-- Expand-only: an older replica neither reads nor writes it, and copies made before it have none.
ALTER TABLE results ADD COLUMN timeline jsonb NOT NULL DEFAULT '[]'::jsonb;

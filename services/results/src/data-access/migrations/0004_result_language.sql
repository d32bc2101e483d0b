-- The attempt's language (issue 27), as student.attempt.submitted.v1 carried it: the result's certificate and its
-- mail go in it. Expand-only: results recorded before it, and by an older replica, are English.
ALTER TABLE results
  ADD COLUMN language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'es', 'fr', 'pt', 'ar'));

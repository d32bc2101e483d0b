-- The assessment's title in the result's language (issue 27), as results.result.recorded.v1 carries it
-- (`localized_title`): the certificate, its mail and the verification page name the assessment by it; the PDF
-- report, the admin's, keeps the English `assessment_title`. Expand-only: an older replica neither reads nor writes
-- it, and copies made before it (empty) read the English title, as their certificates were printed.
ALTER TABLE results ADD COLUMN localized_title text NOT NULL DEFAULT '';

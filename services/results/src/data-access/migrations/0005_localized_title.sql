-- The assessment's title in the student's language (issue 27): the version's copy keeps the translations of its
-- title as assessment.version.published.v1 carries them (`{}`: English only), and a result keeps its title in the
-- result's language for the certificate and its mail, beside the English title the admin's screens show.
-- Expand-only: an older replica neither reads nor writes them; a result recorded before them reads its English
-- title (empty), and a version kept before them gets its titles from the event's next delivery.
ALTER TABLE versions ADD COLUMN titles jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE results ADD COLUMN localized_title text NOT NULL DEFAULT '';

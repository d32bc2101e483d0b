-- The attempt's language on the copy of each result (issue 27): its certificate is written in it, and the
-- certificate's mail goes in it. Expand-only: an older replica neither reads nor writes it, and copies made before
-- it are English, as their certificates were.
ALTER TABLE results ADD COLUMN language text NOT NULL DEFAULT 'en';

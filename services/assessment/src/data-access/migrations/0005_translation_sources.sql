-- What each translated text was written against: per language, the tree of its translation with each text (and a
-- question's file) replaced by a hash of the English it translated then, so a text whose English changed since is
-- shown as needing review. Expand-only: {} (every version saved before) has none, and a text without one counts
-- as written against its own version's English: existing translations are current.
ALTER TABLE assessment_versions ADD COLUMN translation_sources jsonb NOT NULL DEFAULT '{}';

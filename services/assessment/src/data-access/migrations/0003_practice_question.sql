-- One untimed practice question a version may offer on the welcome page before Start (issue 26): never scored,
-- never saved. Expand-only: null (every version saved before) is none.
ALTER TABLE assessment_versions ADD COLUMN practice_question jsonb;

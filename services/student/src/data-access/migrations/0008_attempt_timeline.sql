-- The attempt's timeline (issue 26): facts for the administrator's result detail and PDF report, never scored.
-- Expand-only: an older replica neither reads nor writes the table or the column.
--   attempt_timeline: what happened while the attempt ran, in the order it happened. The server writes saves
--                     (with each autosave, in the same statement) and extensions; the student's page reports
--                     sections reached, the page hidden, offline periods and pastes; a device not seen before on
--                     the attempt is a second device. Start and the end come from the attempt itself.
--   devices:          the devices (the page's own random id) that opened the attempt, the first one first.
CREATE TABLE attempt_timeline (
  id bigserial PRIMARY KEY,
  attempt_id uuid NOT NULL REFERENCES attempts (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  kind text NOT NULL CHECK (kind IN ('section_reached', 'saved', 'offline', 'page_hidden', 'pasted',
    'second_device', 'extended')),
  detail jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX attempt_timeline_attempt ON attempt_timeline (attempt_id, id);

ALTER TABLE attempts ADD COLUMN devices text[] NOT NULL DEFAULT '{}';

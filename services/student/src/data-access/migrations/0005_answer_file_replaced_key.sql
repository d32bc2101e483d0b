-- The object key of the file an upload replaced, written by the statement that replaces it (ON CONFLICT DO UPDATE
-- sees the row as it is, whatever a parallel upload committed), so the replaced object is always removed.
-- Expand-only: older replicas neither read nor write it.
ALTER TABLE attempt_files
  ADD COLUMN replaced_key text;

-- Live attempts (the admin's Live screen). Expand-only: an older replica neither reads nor writes these columns,
-- and never writes 'admin' as finalised_by.
--   added_seconds: time administrators added to the attempt while it ran (every extension adds; none shortens).
--   page_seen_at:  when a page of the attempt last held its event stream open (refreshed about every 30 s while it
--                  does), so the Live screen tells an open page that is idle from one that is gone.
--   ended_by:      the administrator who ended the attempt before its time (finalised_by = 'admin').
ALTER TABLE attempts
  ADD COLUMN added_seconds integer NOT NULL DEFAULT 0,
  ADD COLUMN page_seen_at timestamptz,
  ADD COLUMN ended_by uuid;

ALTER TABLE attempts DROP CONSTRAINT attempts_finalised_by_check;
ALTER TABLE attempts ADD CONSTRAINT attempts_finalised_by_check
  CHECK (finalised_by IN ('student', 'deadline', 'admin'));

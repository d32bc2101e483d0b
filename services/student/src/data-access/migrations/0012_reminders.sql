-- Reminders to invited students who have not started (issue 46). Expand-only: every student so far was reminded 0
-- times. `last_reminded_at` is also the guard of "at most one a day": a reminder is written by a conditional UPDATE of
-- the row (only when it was not reminded since the start of the UTC day), so two replicas of the reminder job, or the
-- job and an administrator's "Send a reminder now", never remind one student twice on one day.
ALTER TABLE students
  ADD COLUMN reminder_count integer NOT NULL DEFAULT 0 CHECK (reminder_count >= 0),
  ADD COLUMN last_reminded_at timestamptz;

-- The reminder job walks the invited students in id order (its keyset), a page at a time.
CREATE INDEX students_invited_id ON students (id) WHERE status = 'invited';

-- The reminder settings an administrator saved (one row: the product has one assessment); none saved, the service's
-- REMINDER_* configuration applies.
CREATE TABLE reminder_settings (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  after_days integer[] NOT NULL,
  before_expiry_hours integer NOT NULL CHECK (before_expiry_hours >= 0),
  max_reminders integer NOT NULL CHECK (max_reminders >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL
);

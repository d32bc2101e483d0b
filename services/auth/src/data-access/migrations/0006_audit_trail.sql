-- The audit log shows what admins did across the system: the other services' admin actions arrive as events
-- (student invited, resent, deleted; result deleted; certificate resent; assessment version published) and are
-- written here once each, by the event's id.
ALTER TABLE audit_log ADD COLUMN event_id uuid UNIQUE;
-- Targets are now students and results too, whose ids the other services own (kept as they send them).
ALTER TABLE audit_log ALTER COLUMN target_id TYPE text;
CREATE INDEX audit_log_actor ON audit_log (actor_id, created_at DESC);
CREATE INDEX audit_log_action ON audit_log (action, created_at DESC);

-- The students the events named, so that a later event that carries only an id (a result deleted) can name them.
-- A deleted student's row goes with them; the audit entries written before keep what they said.
CREATE TABLE audit_students (
  student_id text PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL
);

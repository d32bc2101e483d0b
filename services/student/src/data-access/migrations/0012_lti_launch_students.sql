-- Which student each taken launch ticket opened: the newest is the launch whose grade service gets the student's
-- next score (student.attempt.submitted.v1's lti_launch_id). Erasing the student erases them.
ALTER TABLE lti_launch_tickets
  ADD COLUMN student_id uuid REFERENCES students (id) ON DELETE CASCADE;
CREATE INDEX lti_launch_tickets_student ON lti_launch_tickets (student_id, used_at DESC);

-- Who each launch opened (student.lti-launch.accepted.v1), and the name the LMS gave: the instructor's page of a
-- resource link lists them; erasing the student erases their launches.
ALTER TABLE lti_launches
  ADD COLUMN student_id uuid,
  ADD COLUMN name text NOT NULL DEFAULT '';
CREATE INDEX lti_launches_student ON lti_launches (student_id);
CREATE INDEX lti_launches_link ON lti_launches (platform_id, resource_link_id);

-- The scores of students who came from an LMS, one per result (results.result.recorded.v1 naming a launch), and
-- their delivery to the launch's line item (Assignment and Grade Services): `none` when the launch gave no grade
-- service, `pending` until the LMS took it (`next_try_at` the next try), `sent`, or `failed` with the LMS's answer.
CREATE TABLE lti_scores (
  result_id uuid PRIMARY KEY,
  launch_id uuid NOT NULL REFERENCES lti_launches (id) ON DELETE CASCADE,
  student_id uuid NOT NULL,
  score_given numeric(4, 1) NOT NULL,
  passed boolean NOT NULL,
  attempt_number integer NOT NULL,
  completed_at timestamptz NOT NULL,
  line_item text,
  state text NOT NULL CHECK (state IN ('none', 'pending', 'sent', 'failed')),
  tries integer NOT NULL DEFAULT 0,
  next_try_at timestamptz NOT NULL DEFAULT now(),
  last_status integer,
  last_answer text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lti_scores_due ON lti_scores (next_try_at) WHERE state = 'pending';
CREATE INDEX lti_scores_student ON lti_scores (student_id);
CREATE INDEX lti_scores_launch ON lti_scores (launch_id);

-- Data retention (issue 46): students whose last activity is older than `months` are erased by the retention job
-- through the erasure an administrator's Delete uses. One row (the product has one assessment); none saved, or
-- `enabled` false, nobody is erased. Expand-only: an older replica neither reads nor writes the table.
-- A student's last activity is the newest of: invited or resent (invited_at; an LMS launch that renews the link
-- sets it too), reminded (last_reminded_at), opened from the LMS (lti_launch_tickets.used_at), and on any attempt:
-- started, answers saved, submitted. A student with an attempt in progress is never erased.
CREATE TABLE retention_settings (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  enabled boolean NOT NULL,
  months integer NOT NULL CHECK (months BETWEEN 1 AND 120),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL
);

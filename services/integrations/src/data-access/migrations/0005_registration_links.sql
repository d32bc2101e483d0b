-- One-time links a super admin makes for LTI Dynamic Registration: the LMS admin pastes one into the LMS, which opens
-- it with its OpenID configuration; only the hash of the link's secret is kept. Used once, lapsing after an hour.
CREATE TABLE lti_registration_links (
  secret_hash bytea PRIMARY KEY,
  created_by uuid NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  platform_id uuid REFERENCES lti_platforms (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lti_registration_links_expires ON lti_registration_links (expires_at);

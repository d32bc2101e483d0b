-- The signed, short-lived certificate download link the report service issues with report.certificate.issued.v1,
-- kept with the student's copy of a passed result (served as `certificateUrl` while unexpired).
ALTER TABLE results
  ADD COLUMN certificate_url text,
  ADD COLUMN certificate_url_expires_at timestamptz;

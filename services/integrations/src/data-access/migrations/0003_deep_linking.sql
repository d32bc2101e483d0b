-- Deep-linking requests waiting for the instructor's confirmation: the request's id is known to the browser that
-- made the launch only (its SHA-256 is kept), used once, and lapses. The return URL and `data` are the verified
-- id_token's, so the confirmation form carries nothing the answer is built from but the id.
CREATE TABLE lti_deep_link_requests (
  id_hash bytea PRIMARY KEY,
  platform_id uuid NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
  deployment_id text NOT NULL,
  return_url text NOT NULL,
  data text,
  nonce text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lti_deep_link_requests_expires ON lti_deep_link_requests (expires_at);

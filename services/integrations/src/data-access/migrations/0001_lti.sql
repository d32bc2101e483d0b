-- The LMS registrations (LTI 1.3 platforms) a super admin made: one per issuer and client id.
CREATE TABLE lti_platforms (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  issuer text NOT NULL,
  client_id text NOT NULL,
  deployment_ids text[] NOT NULL,
  auth_url text NOT NULL,
  jwks_url text NOT NULL,
  token_url text NOT NULL,
  disabled boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT lti_platforms_issuer_client UNIQUE (issuer, client_id)
);

-- Login initiations waiting for their launch: the state and nonce sent to the LMS, the hash of the browser's
-- binding (a cookie's value), and when it lapses. A launch takes its row once (`used_at`).
CREATE TABLE lti_logins (
  state text PRIMARY KEY,
  nonce text NOT NULL UNIQUE,
  platform_id uuid NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
  binding_hash bytea NOT NULL,
  target_link_uri text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lti_logins_expires ON lti_logins (expires_at);

-- Launches accepted: who (the LMS's issuer and `sub`), from which deployment and resource link, with the grade
-- service's claim for the grades to come. The nonce is unique: an id_token is accepted once.
CREATE TABLE lti_launches (
  id uuid PRIMARY KEY,
  platform_id uuid REFERENCES lti_platforms (id) ON DELETE SET NULL,
  issuer text NOT NULL,
  subject text NOT NULL,
  deployment_id text NOT NULL,
  resource_link_id text,
  roles text[] NOT NULL,
  ags jsonb,
  nonce text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

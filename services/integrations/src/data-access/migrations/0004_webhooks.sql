-- Webhook endpoints a super admin added: where Readiness posts which of its events, signed (Standard Webhooks) with
-- the endpoint's secret (sealed under the services' event-secrets key). During a rotation the previous secret signs
-- alongside until `previous_secret_until`. An endpoint failing since `failing_since` for longer than the give-up time
-- is disabled (`disabled_reason`).
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  events text[] NOT NULL,
  sealed_secret text NOT NULL,
  sealed_previous_secret text,
  previous_secret_until timestamptz,
  disabled boolean NOT NULL DEFAULT false,
  disabled_reason text,
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One delivery per event and endpoint: its id is the `webhook-id` every try sends (the receiver de-duplicates by
-- it). `seq` keeps Readiness's order: a student's deliveries to one endpoint go one after the other. `state` is
-- pending until the endpoint answered 2xx (sent) or it was given up (failed).
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq bigserial NOT NULL UNIQUE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id uuid,
  event_type text NOT NULL,
  student_id uuid,
  body text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
  tries integer NOT NULL DEFAULT 0,
  next_try_at timestamptz NOT NULL DEFAULT now(),
  last_status integer,
  last_answer text,
  last_latency_ms integer,
  first_tried_at timestamptz,
  last_tried_at timestamptz,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT webhook_deliveries_once UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_try_at, seq) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_student ON webhook_deliveries (endpoint_id, student_id, seq) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, created_at DESC);
CREATE INDEX webhook_deliveries_of_student ON webhook_deliveries (student_id);

-- One row per mail this service was asked to send: the delivery log, and the key that keeps a redelivered
-- event from mailing twice. Secrets (temporary passwords) are never stored here.
CREATE TABLE deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id uuid NOT NULL,
  template text NOT NULL,
  recipient text NOT NULL,
  subject text NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
  -- Set while one delivery of the event talks to the SMTP server; a stale claim (crash) can be taken over.
  claimed_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  CONSTRAINT deliveries_event_template UNIQUE (event_id, template)
);

CREATE INDEX deliveries_status_created ON deliveries (status, created_at DESC);

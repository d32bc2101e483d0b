-- Transactional outbox: a service writes its state change and the event row in one transaction; the
-- relay publishes pending rows with broker confirms. `id` is the event id, reused on every republish.
CREATE TABLE outbox (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  payload bytea NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  correlation_id text,
  traceparent text,
  tracestate text,
  source text,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);

-- The relay only ever scans unsent rows; the partial index stays as small as the backlog.
CREATE INDEX outbox_pending_idx ON outbox (created_at) WHERE sent_at IS NULL;
-- The retention sweep deletes sent rows by age.
CREATE INDEX outbox_sent_idx ON outbox (sent_at) WHERE sent_at IS NOT NULL;

-- Inbox: one row per (consumer, event id), written in the transaction of the consumer's effect, so a
-- redelivered event finds its row and has no second effect.
CREATE TABLE processed_messages (
  consumer text NOT NULL,
  event_id uuid NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);

-- A consumer may de-duplicate on a natural key of its own as well as on the event id (an attempt id): two
-- events that carry the same key have one effect.
ALTER TABLE processed_messages ADD COLUMN natural_key text;
CREATE UNIQUE INDEX processed_messages_natural_key ON processed_messages (consumer, natural_key)
  WHERE natural_key IS NOT NULL;

-- Side effects outside the database (a mail, a rendered PDF): one row per (scope, key). A worker claims the row
-- with a lease before the effect and records the outcome after it, so concurrent deliveries of one event run the
-- effect once, and a claim whose worker died is taken over when its lease runs out.
CREATE TABLE effect_claims (
  scope text NOT NULL,
  key text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  done_at timestamptz,
  PRIMARY KEY (scope, key)
);

-- Whether a mail went out now lives in the kit's claim table (`effect_claims`, created by the kit's migrations,
-- which run first): scope 'mail:<template>', key the event id. The delivery log keeps who and what subject.
INSERT INTO effect_claims (scope, key, status, attempts, last_error, lease_until, created_at, updated_at, done_at)
SELECT 'mail:' || template,
       event_id::text,
       CASE status WHEN 'queued' THEN 'pending' WHEN 'sending' THEN 'running' WHEN 'sent' THEN 'done' ELSE 'failed' END,
       attempts,
       last_error,
       claimed_at + interval '120 seconds',
       created_at,
       updated_at,
       sent_at
FROM deliveries
ON CONFLICT DO NOTHING;

ALTER TABLE deliveries
  DROP COLUMN status,
  DROP COLUMN claimed_at,
  DROP COLUMN attempts,
  DROP COLUMN last_error,
  DROP COLUMN updated_at,
  DROP COLUMN sent_at;

CREATE INDEX deliveries_created ON deliveries (created_at DESC);

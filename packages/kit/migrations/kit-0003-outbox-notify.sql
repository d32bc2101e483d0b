-- Wakes the outbox relays of this database when events are enqueued: one notification per inserting statement
-- (PostgreSQL folds identical notifications of one transaction into one, delivered at commit). The relays LISTEN
-- on 'outbox' and poll only slowly as a safety net, so an idle service sends almost no statements.
CREATE OR REPLACE FUNCTION outbox_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('outbox', '');
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS outbox_notify ON outbox;
CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify();

-- One figures slot per transaction instead of one per statement. A scoring transaction writes a result and its
-- student's row, and each statement's trigger drew its own random slot: two concurrent scoring transactions could
-- lock two slots in opposite orders and deadlock (each deadlock costs a submission a retry with backoff). With the
-- slot taken from the transaction id, every statement of a transaction updates the same row, and consecutive
-- transactions still spread over the 16 slots.

CREATE OR REPLACE FUNCTION count_students() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target smallint := txid_current() % 16;
  d_students bigint := 0;
  d_pending bigint := 0;
  d_progress bigint := 0;
  o_students bigint := 0;
  o_pending bigint := 0;
  o_progress bigint := 0;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT count(*), count(*) FILTER (WHERE NOT started AND scored_attempt = 0),
           count(*) FILTER (WHERE started_attempt > scored_attempt)
      INTO d_students, d_pending, d_progress FROM new_rows;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT count(*), count(*) FILTER (WHERE NOT started AND scored_attempt = 0),
           count(*) FILTER (WHERE started_attempt > scored_attempt)
      INTO o_students, o_pending, o_progress FROM old_rows;
  END IF;
  IF d_students <> o_students OR d_pending <> o_pending OR d_progress <> o_progress THEN
    UPDATE figures SET students = students + d_students - o_students,
      pending_invites = pending_invites + d_pending - o_pending, in_progress = in_progress + d_progress - o_progress
    WHERE slot = target;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION count_results() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target smallint := txid_current() % 16;
  sign integer := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
  d_results bigint;
  d_passed bigint;
  d_sum bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*), count(*) FILTER (WHERE passed), coalesce(sum(percentage), 0)
      INTO d_results, d_passed, d_sum FROM new_rows;
  ELSE
    SELECT count(*), count(*) FILTER (WHERE passed), coalesce(sum(percentage), 0)
      INTO d_results, d_passed, d_sum FROM old_rows;
  END IF;
  IF d_results > 0 THEN
    UPDATE figures SET results = results + sign * d_results, passed = passed + sign * d_passed,
      percentage_sum = percentage_sum + sign * d_sum
    WHERE slot = target;
  END IF;
  RETURN NULL;
END $$;

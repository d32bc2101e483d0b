-- Those taking the test, as the line counts them, count each student once (issue 48). 0018 meant "the attempts in
-- progress, and the turns served in the last 10 s whose page has not started yet", but counted every turn served in
-- the last 10 s: a student who started within 10 s of their turn counted twice, once by their attempt and once by
-- their ticket (which stays while their admission holds). At the peak the line then saw up to a crowd more than were
-- taking the test, let in less than its target left room for, and the moment those turns were 10 s old let in the
-- difference at once: its rate swung every 10 s between the least rate and thousands a minute.
-- Now a served turn counts only until its student starts: an attempt begun since they took their ticket, less a minute,
-- as the attempt's start is the service's clock and the ticket's the database's (a student allowed another attempt
-- finished the one before it before queueing again).
-- Expand-only: a function added, and 0019's five-argument tick replaced with the same signature and answers.
CREATE FUNCTION waiting_room_taking() RETURNS double precision
LANGUAGE sql STABLE AS $$
  SELECT ((SELECT count(*) FROM attempts AS a WHERE a.status = 'in_progress')
    + (SELECT count(*) FROM waiting_tickets AS w
       WHERE w.admitted_at > now() - interval '10 seconds'
         AND NOT EXISTS (SELECT 1 FROM attempts AS a WHERE a.student_id = w.student_id AND a.started_at >= w.arrived_at - interval '1 minute')
      ))::double precision
$$;

CREATE OR REPLACE FUNCTION waiting_room_tick(pressure boolean, warm boolean, least_rate double precision, bound double precision,
  hold interval)
RETURNS TABLE (serving double precision, per_second double precision, waiting bigint, longest_wait_seconds double precision,
  under_pressure boolean, ceiling_per_minute integer)
LANGUAGE plpgsql AS $$
DECLARE
  room waiting_room;
  rate double precision;
  taking double precision;
  target double precision;
BEGIN
  room := waiting_room_advance(bound);
  IF pressure THEN
    UPDATE waiting_room SET pressure_until = now() + interval '3 seconds' WHERE only_row
    RETURNING * INTO room;
  ELSIF warm THEN
    UPDATE waiting_room SET warm_until = now() + interval '3 seconds' WHERE only_row
    RETURNING * INTO room;
  END IF;
  -- The tickets served by now are admitted: their hold starts, and they count as taking the test from here.
  UPDATE waiting_tickets AS w SET admitted_at = now() WHERE w.admitted_at IS NULL AND w.ticket <= floor(room.serving);
  IF room.adjusted_at <= now() - interval '900 milliseconds' THEN
    taking := waiting_room_taking();
    target := CASE
      WHEN room.in_progress_target IS NULL OR room.adjusted_at <= now() - interval '5 seconds'
        THEN taking + GREATEST(bound, 1)
      WHEN room.pressure_until > now()
        THEN GREATEST(1, LEAST(room.in_progress_target, taking * 0.9))
      WHEN room.warm_until > now()
        THEN GREATEST(1, LEAST(room.in_progress_target, taking))
      ELSE LEAST(room.in_progress_target + GREATEST(2, room.in_progress_target * 0.01), taking + GREATEST(bound, 1))
    END;
    UPDATE waiting_room SET adjusted_at = now(), in_progress_target = target,
      per_second = GREATEST(least_rate, LEAST(bound, target - taking))
    WHERE only_row
    RETURNING * INTO room;
  END IF;
  rate := waiting_room_rate(room, bound);
  DELETE FROM waiting_tickets AS w WHERE w.admitted_at <= now() - hold;
  RETURN QUERY SELECT room.serving, rate, count(*),
    COALESCE(EXTRACT(EPOCH FROM now() - min(w.arrived_at))::double precision, 0),
    COALESCE(room.pressure_until > now(), false), room.ceiling_per_minute
  FROM waiting_tickets AS w WHERE w.admitted_at IS NULL;
END
$$;

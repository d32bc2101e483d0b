-- The line's target grows slowly, and not at all while a replica nears its limits (issue 48). With 0018 the target
-- grew by 5 % a second while no replica was under pressure; the pressure of the students it let in shows 10 to 20 s
-- later (their autosaves, uploads and submits), and 5 % a second compounds to 1.6 to 2.7 times the target over that
-- lag: each rise let in a crowd, the admitted students' calls slowed, and the line then admitted nobody for half a
-- minute while they finished. Now there are three states, from every replica's look within the last 3 s:
--   pressure (any replica late, its connections taken, or the students' calls slow): the target is at most 90 % of
--     those taking the test, as before;
--   warm (a replica at half its limits or more, but none over them): the target is at most those taking the test, so
--     a student is let in only as another finishes;
--   cool: the target grows by 1 % a second, at least 2 students, as far as a second of the bound beyond those
--     taking the test.
-- The first adjustment after a quiet spell still leaves a second of the bound free (a quiet product admits at once).
-- Expand-only: a column added and a new five-argument tick. 0018's four-argument tick stays for a replica of the
-- version before (which never reports warm), as a call of the new one: one controller, whichever version asks.
ALTER TABLE waiting_room ADD COLUMN warm_until timestamptz;

CREATE FUNCTION waiting_room_tick(pressure boolean, warm boolean, least_rate double precision, bound double precision,
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
    -- Students taking the test: attempts in progress, and the turns just served whose page has not asked yet.
    SELECT (SELECT count(*) FROM attempts AS a WHERE a.status = 'in_progress')
      + (SELECT count(*) FROM waiting_tickets AS w WHERE w.admitted_at > now() - interval '10 seconds')
    INTO taking;
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

CREATE OR REPLACE FUNCTION waiting_room_tick(pressure boolean, least_rate double precision, bound double precision,
  hold interval)
RETURNS TABLE (serving double precision, per_second double precision, waiting bigint, longest_wait_seconds double precision,
  under_pressure boolean, ceiling_per_minute integer)
LANGUAGE sql AS $$
  SELECT * FROM waiting_room_tick(pressure, false, least_rate, bound, hold)
$$;

-- The line admits by the attempts in progress, not by a rate that chases the pressure (issue 48). The rate of 0015
-- climbed by a tenth a second while nobody was under pressure, and the pressure of the students it admitted came tens
-- of seconds later (their autosaves, uploads and submits): at the 5,000-student peak it swung every 75 s from the
-- least rate to 8,000 starts a minute, and each swing admitted a crowd that slowed everyone for half a minute.
-- Now the line keeps a target of students taking the test at once (`in_progress_target`): the attempts in progress,
-- with the tickets served in the last 10 s whose page has not started yet. Each adjustment (at most once a second)
-- lets in what the target leaves room for within the next second, never less than the least rate. Under any replica's
-- pressure the target is at most 90 % of those taking the test: a second of pressure stops admissions, and a long one
-- does not drive the target further down than the students the product is serving (a target cut by a tenth each
-- second of it fell to nothing at the peak, and the line then admitted nobody for a minute). Without pressure the
-- target grows by 5 % a second, at least 5 students. A student admitted counts at once, so the line never lets in
-- more than the room left, however late the pressure shows. After a quiet spell, or before any measure, the target leaves a second of
-- the bound free: a quiet product admits at once until the first pressure.
-- Expand-only: a column added, and 0015's tick replaced with the same signature and answers.
ALTER TABLE waiting_room ADD COLUMN in_progress_target double precision CHECK (in_progress_target > 0);

CREATE OR REPLACE FUNCTION waiting_room_tick(pressure boolean, least_rate double precision, bound double precision, hold interval)
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
  END IF;
  -- The tickets served by now are admitted: their hold starts, and they count as taking the test from here.
  UPDATE waiting_tickets AS w SET admitted_at = now() WHERE w.admitted_at IS NULL AND w.ticket <= floor(room.serving);
  IF room.adjusted_at <= now() - interval '900 milliseconds' THEN
    -- Students taking the test: attempts in progress (the index of the one in progress each), and the turns just
    -- served whose page has not asked yet (a student who started within the 10 s counts twice until then).
    SELECT (SELECT count(*) FROM attempts AS a WHERE a.status = 'in_progress')
      + (SELECT count(*) FROM waiting_tickets AS w WHERE w.admitted_at > now() - interval '10 seconds')
    INTO taking;
    target := CASE
      WHEN room.in_progress_target IS NULL OR room.adjusted_at <= now() - interval '5 seconds'
        THEN taking + GREATEST(bound, 1)
      WHEN room.pressure_until > now()
        THEN GREATEST(1, LEAST(room.in_progress_target, taking * 0.9))
      ELSE LEAST(room.in_progress_target + GREATEST(5, room.in_progress_target * 0.05), taking + GREATEST(bound, 1))
    END;
    UPDATE waiting_room SET adjusted_at = now(), admitted_mark = LEAST(floor(room.serving), room.arrivals),
      in_progress_target = target,
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

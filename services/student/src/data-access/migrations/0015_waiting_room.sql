-- The waiting room (issue 48): at the enrolment peak a student who cannot start at once takes a ticket and waits,
-- before their clock starts, first come first served across every replica. One row holds the line's counters:
-- `arrivals` is the last ticket handed out, tickets up to floor(`serving`) may start, and `serving` moves on at the
-- admission rate (`per_second`, measured by the replicas; NULL until measured: the bound) as time passes, capped a
-- second's worth of admissions ahead of the arrivals so that a quiet product admits at once. An administrator's
-- `ceiling_per_minute` bounds the rate. Expand-only: an older replica neither reads nor writes these tables.
CREATE TABLE waiting_room (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  arrivals bigint NOT NULL DEFAULT 0,
  serving double precision NOT NULL DEFAULT 0,
  per_second double precision CHECK (per_second > 0),
  advanced_at timestamptz NOT NULL DEFAULT now(),
  adjusted_at timestamptz NOT NULL DEFAULT now(),
  -- The tickets admitted (served and taken) when the rate was last adjusted: what went through since is measured.
  admitted_mark double precision NOT NULL DEFAULT 0,
  pressure_until timestamptz,
  ceiling_per_minute integer CHECK (ceiling_per_minute BETWEEN 1 AND 100000),
  ceiling_updated_at timestamptz,
  ceiling_updated_by text
) WITH (fillfactor = 20);
INSERT INTO waiting_room DEFAULT VALUES;

-- A ticket of a student who waits (admitted_at NULL), or who was admitted and has not started yet (their admission
-- holds for a while). A student admitted at once keeps no row. Erasing the student erases their ticket.
CREATE TABLE waiting_tickets (
  student_id uuid PRIMARY KEY REFERENCES students (id) ON DELETE CASCADE,
  ticket bigint NOT NULL,
  arrived_at timestamptz NOT NULL DEFAULT now(),
  admitted_at timestamptz
);
-- The line itself: who still waits, by ticket (the count, the first arrival, the tickets served at each look).
CREATE INDEX waiting_tickets_in_line ON waiting_tickets (ticket) WHERE admitted_at IS NULL;

-- The rate the line moves at now: the measured one, within the administrator's ceiling or else `bound`.
CREATE FUNCTION waiting_room_rate(room waiting_room, bound double precision) RETURNS double precision
LANGUAGE sql IMMUTABLE AS $$
  SELECT LEAST(COALESCE(room.per_second, b), b)
  FROM (SELECT COALESCE(room.ceiling_per_minute / 60.0, bound) AS b) AS bounds
$$;

-- `serving` moved on by the time passed since the last move (at most a minute of it), capped a second's worth of
-- admissions (at least one) ahead of the arrivals at the rate of now: when the rate falls, the credit no ticket has
-- taken yet shrinks with it, while a ticket already served stays served.
CREATE FUNCTION waiting_room_moved(room waiting_room, bound double precision) RETURNS double precision
LANGUAGE sql STABLE AS $$
  SELECT GREATEST(LEAST(room.serving, room.arrivals), LEAST(
    room.serving + rate.r * LEAST(GREATEST(EXTRACT(EPOCH FROM now() - room.advanced_at), 0), 60),
    room.arrivals + GREATEST(1, rate.r)))
  FROM (SELECT waiting_room_rate(room, bound) AS r) AS rate
$$;

-- The line moved on and kept so; locks the row until the caller's statement commits.
CREATE FUNCTION waiting_room_advance(bound double precision) RETURNS waiting_room
LANGUAGE sql AS $$
  UPDATE waiting_room AS room SET
    serving = waiting_room_moved(room, bound),
    advanced_at = GREATEST(room.advanced_at, now())
  WHERE only_row
  RETURNING room.*
$$;

-- A student asks to start: admitted (a ticket served, an admission still held, or room at once) or told their
-- ticket. Asking again keeps the ticket. Every arrival takes the row's lock, so tickets follow the arrivals' order.
CREATE FUNCTION waiting_room_arrive(student uuid, bound double precision, hold interval)
RETURNS TABLE (admitted boolean, ticket bigint, serving double precision, per_second double precision, waiting bigint)
LANGUAGE plpgsql AS $$
DECLARE
  room waiting_room;
  rate double precision;
  held waiting_tickets;
  taken bigint;
BEGIN
  room := waiting_room_advance(bound);
  rate := waiting_room_rate(room, bound);
  SELECT * INTO held FROM waiting_tickets AS w WHERE w.student_id = student;
  IF held.admitted_at IS NOT NULL AND held.admitted_at <= now() - hold THEN
    DELETE FROM waiting_tickets AS w WHERE w.student_id = student;
    held := NULL;
  END IF;
  IF held.ticket IS NULL THEN
    UPDATE waiting_room SET arrivals = waiting_room.arrivals + 1 WHERE only_row RETURNING waiting_room.arrivals INTO taken;
    room.arrivals := taken;
    IF taken > floor(room.serving) THEN
      INSERT INTO waiting_tickets (student_id, ticket) VALUES (student, taken);
    END IF;
  ELSE
    taken := held.ticket;
    IF held.admitted_at IS NULL AND taken <= floor(room.serving) THEN
      UPDATE waiting_tickets AS w SET admitted_at = now() WHERE w.student_id = student;
    END IF;
  END IF;
  RETURN QUERY SELECT taken <= floor(room.serving), taken, room.serving, rate,
    GREATEST(room.arrivals - floor(room.serving)::bigint, 0);
END
$$;

-- One replica's look at the line, once a second while students arrive or wait: its pressure noted for three
-- seconds, the rate adjusted at most once a second by whichever replica comes first (under any replica's pressure:
-- 30 % below what was admitted since the last adjustment, measured over at most the last 5 seconds, never below
-- `least`, so that the line takes over within a second of the pressure; otherwise up by 10 % and `least`, never
-- above the ceiling or `bound`), the tickets served since marked admitted (their hold starts now, whether or not
-- their page asked yet), admissions held too long dropped, and the line's figures.
CREATE FUNCTION waiting_room_tick(pressure boolean, least_rate double precision, bound double precision, hold interval)
RETURNS TABLE (serving double precision, per_second double precision, waiting bigint, longest_wait_seconds double precision,
  under_pressure boolean, ceiling_per_minute integer)
LANGUAGE plpgsql AS $$
DECLARE
  room waiting_room;
  rate double precision;
  admitted double precision;
  went double precision;
BEGIN
  room := waiting_room_advance(bound);
  IF pressure THEN
    UPDATE waiting_room SET pressure_until = now() + interval '3 seconds' WHERE only_row
    RETURNING * INTO room;
  END IF;
  rate := waiting_room_rate(room, bound);
  IF room.adjusted_at <= now() - interval '900 milliseconds' THEN
    admitted := LEAST(floor(room.serving), room.arrivals);
    -- After a quiet spell what went through says nothing of now: the rate itself stands for it.
    went := CASE WHEN room.adjusted_at > now() - interval '5 seconds'
      THEN (admitted - room.admitted_mark) / EXTRACT(EPOCH FROM now() - room.adjusted_at) ELSE rate END;
    UPDATE waiting_room SET adjusted_at = now(), admitted_mark = admitted, per_second = CASE
        WHEN room.pressure_until > now() THEN GREATEST(least_rate, LEAST(rate, went) * 0.7)
        ELSE rate * 1.1 + least_rate
      END
    WHERE only_row
    RETURNING * INTO room;
    rate := waiting_room_rate(room, bound);
  END IF;
  UPDATE waiting_tickets AS w SET admitted_at = now() WHERE w.admitted_at IS NULL AND w.ticket <= floor(room.serving);
  DELETE FROM waiting_tickets AS w WHERE w.admitted_at <= now() - hold;
  RETURN QUERY SELECT room.serving, rate, count(*),
    COALESCE(EXTRACT(EPOCH FROM now() - min(w.arrived_at))::double precision, 0),
    COALESCE(room.pressure_until > now(), false), room.ceiling_per_minute
  FROM waiting_tickets AS w WHERE w.admitted_at IS NULL;
END
$$;

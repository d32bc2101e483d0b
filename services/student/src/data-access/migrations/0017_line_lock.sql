-- The line's row lock, taken only to hand out a ticket (issue 48). At the peak every arrival's Start took the
-- `waiting_room` row's lock until its commit, with two updates of the row, and so did every student whose turn had
-- come, asking again to start: an admitted student's Start waited behind the arrivals. Now:
-- - a student who holds a ticket reads the line without its lock (the same reading `figures` makes: the line moved
--   on to now; it only ever moves forward, and a ticket served stays served) and, once served, marks only their own
--   ticket;
-- - an arrival takes its ticket and moves the line on in one update of the row, then records its ticket.
-- Same signature and answers as 0015's function, so an older replica calling it is served the same.
CREATE OR REPLACE FUNCTION waiting_room_arrive(student uuid, bound double precision, hold interval)
RETURNS TABLE (admitted boolean, ticket bigint, serving double precision, per_second double precision, waiting bigint)
LANGUAGE plpgsql AS $$
DECLARE
  room waiting_room;
  moved double precision;
  held waiting_tickets;
  taken bigint;
BEGIN
  SELECT * INTO held FROM waiting_tickets AS w WHERE w.student_id = student;
  IF held.admitted_at IS NOT NULL AND held.admitted_at <= now() - hold THEN
    DELETE FROM waiting_tickets AS w WHERE w.student_id = student;
    held := NULL;
  END IF;
  IF held.ticket IS NOT NULL THEN
    SELECT * INTO room FROM waiting_room AS r WHERE r.only_row;
    moved := waiting_room_moved(room, bound);
    IF held.admitted_at IS NULL AND held.ticket <= floor(moved) THEN
      UPDATE waiting_tickets AS w SET admitted_at = now() WHERE w.student_id = student;
    END IF;
    RETURN QUERY SELECT held.ticket <= floor(moved), held.ticket, moved, waiting_room_rate(room, bound),
      GREATEST(room.arrivals - floor(moved)::bigint, 0);
    RETURN;
  END IF;
  -- The line moved on as `waiting_room_advance` moves it (against the arrivals before this one) and the next ticket
  -- taken, in one update: the row's lock is held from here to the commit.
  UPDATE waiting_room AS r SET
    serving = waiting_room_moved(r, bound),
    advanced_at = GREATEST(r.advanced_at, now()),
    arrivals = r.arrivals + 1
  WHERE r.only_row
  RETURNING r.* INTO room;
  taken := room.arrivals;
  IF taken > floor(room.serving) THEN
    INSERT INTO waiting_tickets (student_id, ticket) VALUES (student, taken);
  END IF;
  RETURN QUERY SELECT taken <= floor(room.serving), taken, room.serving, waiting_room_rate(room, bound),
    GREATEST(room.arrivals - floor(room.serving)::bigint, 0);
END
$$;

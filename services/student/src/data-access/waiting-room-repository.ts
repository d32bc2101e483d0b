import { sql } from 'drizzle-orm';
import { rows, type Database, type Runner } from '@readiness/kit/db';
import { audit } from './students-repository';

/** The rate bounds of the line, in admissions a second, and how long an admission is held for its student. */
export interface LineBounds {
  /** The highest rate when no administrator's ceiling is set. */
  bound: number;
  /** The lowest rate pressure brings it down to. */
  least: number;
  holdSeconds: number;
}

/** A student's place: admitted (they may start now) or their ticket, with the line as it stood. */
export interface Arrival {
  admitted: boolean;
  ticket: number;
  serving: number;
  perSecond: number;
  waiting: number;
}

/** What one replica's look at the line found. */
export interface LineTick {
  serving: number;
  perSecond: number;
  waiting: number;
  longestWaitSeconds: number;
  underPressure: boolean;
  ceilingPerMinute: number | null;
}

/** The line's public figures, read without moving it. */
export interface LineFigures {
  serving: number;
  perSecond: number;
  waiting: number;
}

const hold = (b: LineBounds) => sql`make_interval(secs => ${b.holdSeconds})`;

interface LineRow {
  serving: number;
  per_second: number;
  waiting: string;
  longest_wait_seconds: number;
  under_pressure: boolean;
  ceiling_per_minute: number | null;
}

const toLineTick = (row: LineRow): LineTick => ({
  serving: row.serving,
  perSecond: row.per_second,
  waiting: Number(row.waiting),
  longestWaitSeconds: row.longest_wait_seconds,
  underPressure: row.under_pressure,
  ceilingPerMinute: row.ceiling_per_minute,
});

/** One statement: the student's ticket, taken or kept, and whether it is served (migration 0015's function). */
export async function arrive(runner: Runner, studentId: string, b: LineBounds): Promise<Arrival> {
  const [row] = await rows<{
    admitted: boolean;
    ticket: string;
    serving: number;
    per_second: number;
    waiting: string;
  }>(runner, sql`SELECT * FROM waiting_room_arrive(${studentId}::uuid, ${b.bound}::float8, ${hold(b)})`);
  return {
    admitted: row!.admitted,
    ticket: Number(row!.ticket),
    serving: row!.serving,
    perSecond: row!.per_second,
    waiting: Number(row!.waiting),
  };
}

/**
 * One replica's headroom noted (pressure, warm or cool), the rate adjusted (at most once a second overall), the
 * figures read (migration 0019's function; those taking the test counted by 0020's `waiting_room_taking`).
 */
export async function tick(
  runner: Runner,
  state: 'pressure' | 'warm' | 'cool',
  b: LineBounds,
): Promise<LineTick> {
  const [row] = await rows<LineRow>(
    runner,
    sql`SELECT * FROM waiting_room_tick(${state === 'pressure'}, ${state === 'warm'}, ${b.least}::float8,
          ${b.bound}::float8, ${hold(b)})`,
  );
  return toLineTick(row!);
}

/** Where the line stands now, as `waiting_room_advance` would move it, without writing. */
export async function figures(runner: Runner, bound: number): Promise<LineFigures> {
  const [row] = await rows<{ serving: number; per_second: number; waiting: string }>(
    runner,
    sql`SELECT moved AS serving, waiting_room_rate(room, ${bound}::float8) AS per_second,
          GREATEST(room.arrivals - floor(moved)::bigint, 0) AS waiting
        FROM waiting_room AS room, LATERAL waiting_room_moved(room, ${bound}::float8) AS moved`,
  );
  return { serving: row!.serving, perSecond: row!.per_second, waiting: Number(row!.waiting) };
}

/**
 * The administrator's ceiling (null: the measured capacity alone), and who set it: the line moved on at the old rate
 * first, the measured rate forgotten (it starts again from the new bound and follows the pressure), audited.
 */
export async function saveCeiling(
  database: Database,
  s: { ceilingPerMinute: number | null; by: string; bound: number },
): Promise<void> {
  await database.transaction(async (tx) => {
    await tx.execute(sql`SELECT waiting_room_advance(${s.bound}::float8)`);
    await tx.execute(
      sql`UPDATE waiting_room SET ceiling_per_minute = ${s.ceilingPerMinute}, ceiling_updated_at = now(),
            ceiling_updated_by = ${s.by}, per_second = NULL
          WHERE only_row`,
    );
    await audit(tx, {
      actorId: s.by,
      action: 'waiting-room.ceiling-changed',
      details: { ceilingPerMinute: s.ceilingPerMinute },
    });
  });
}

/** What an administrator sees, read without moving the line or taking its lock. */
export async function view(runner: Runner, bound: number): Promise<LineTick> {
  const [row] = await rows<LineRow>(
    runner,
    sql`SELECT moved AS serving, waiting_room_rate(room, ${bound}::float8) AS per_second,
          line.waiting, line.longest_wait_seconds,
          COALESCE(room.pressure_until > now(), false) AS under_pressure, room.ceiling_per_minute
        FROM waiting_room AS room, LATERAL waiting_room_moved(room, ${bound}::float8) AS moved,
          LATERAL (SELECT count(*) AS waiting,
                     COALESCE(EXTRACT(EPOCH FROM now() - min(w.arrived_at))::float8, 0) AS longest_wait_seconds
                   FROM waiting_tickets AS w WHERE w.admitted_at IS NULL AND w.ticket > floor(moved)) AS line`,
  );
  return toLineTick(row!);
}

/** Attempts started in the last minute: the admissions an administrator sees go through. */
export async function startedLastMinute(runner: Runner): Promise<number> {
  const [row] = await rows<{ started: string }>(
    runner,
    sql`SELECT count(*) AS started FROM attempts
        WHERE status = 'in_progress' AND started_at > now() - interval '1 minute'`,
  );
  return Number(row!.started);
}

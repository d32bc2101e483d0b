import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';

/** What the server and the student's page record of an attempt as it runs (the start and the end are the attempt's). */
export type TimelineRowKind =
  'section_reached' | 'saved' | 'offline' | 'page_hidden' | 'pasted' | 'second_device' | 'extended';

/** One recorded fact: its kind's figures are in `detail` (sectionId, seconds, questionId and chars, minutes and actorId). */
export interface TimelineRow {
  at: Date;
  kind: TimelineRowKind;
  detail: {
    sectionId?: number;
    seconds?: number;
    questionId?: string;
    chars?: number;
    minutes?: number;
    actorId?: string;
  };
}

/** At most this many facts the page reports per attempt; more are dropped (saves and extensions are not counted). */
export const MAX_REPORTED_FACTS = 1000;
/** At most this many devices are told apart per attempt. */
const MAX_DEVICES = 20;

/** An attempt's recorded facts in the order they were recorded, as JSON, for a statement that reads the attempt `a`. */
export const TIMELINE_JSON = sql`coalesce((SELECT json_agg(json_build_object('at', t.at, 'kind', t.kind,
  'detail', t.detail) ORDER BY t.id) FROM attempt_timeline t WHERE t.attempt_id = a.id), '[]'::json)`;

export type TimelineJson = Array<Omit<TimelineRow, 'at'> & { at: string }>;
export const toTimeline = (t: TimelineJson): TimelineRow[] => t.map((r) => ({ ...r, at: new Date(r.at) }));

/** A fact the page reported, its time already on the server's clock (the page corrects its own). */
export interface ReportedFact {
  at: Date;
  kind: Extract<TimelineRowKind, 'section_reached' | 'offline' | 'page_hidden' | 'pasted'>;
  detail: TimelineRow['detail'];
}

/**
 * Records what the page reports, only for the link's own attempt while it is open (in progress and within the grace
 * after its deadline), in the caller's transaction: the attempt is locked first, so reports of one attempt are
 * written one at a time and the caps hold however many arrive at once. The device is added to the attempt's
 * devices when it is new (and then, when it is not the first, recorded as a second device; at most 20), and each
 * fact is kept with its time moved into the attempt's span (never before its start, never after now) and a period
 * (page hidden, offline) no longer than the attempt (its deadline less its start, time added so far included), up
 * to `MAX_REPORTED_FACTS` an attempt. False when the attempt is not the link's or not open.
 */
export async function recordActivity(
  tx: Runner,
  a: { attemptId: string; owner: Buffer; deviceId: string; facts: ReportedFact[]; graceSeconds: number },
): Promise<boolean> {
  const [open] = await rows<{ id: string; devices: string[] }>(
    tx,
    sql`SELECT a.id, a.devices FROM attempts a JOIN students s ON s.id = a.student_id
        WHERE a.id = ${a.attemptId}::uuid AND s.token_hash = ${a.owner} AND a.status = 'in_progress'
          AND clock_timestamp() <= a.deadline_at + make_interval(secs => ${a.graceSeconds})
        FOR UPDATE OF a`,
  );
  if (!open) return false;
  const newDevice = !open.devices.includes(a.deviceId) && open.devices.length < MAX_DEVICES;
  const facts = JSON.stringify(
    a.facts.map((f) => ({ at: f.at.toISOString(), kind: f.kind, detail: f.detail })),
  );
  // A statement of its own, so its snapshot sees every report written before this one took the lock.
  await tx.execute(
    sql`WITH a AS (SELECT id, started_at, floor(extract(epoch FROM deadline_at - started_at))::int AS length
          FROM attempts WHERE id = ${open.id}::uuid),
        device AS (
          UPDATE attempts SET devices = devices || ${a.deviceId}::text
          WHERE id = ${open.id}::uuid AND ${newDevice}),
        second AS (
          INSERT INTO attempt_timeline (attempt_id, at, kind)
          SELECT a.id, clock_timestamp(), 'second_device' FROM a WHERE ${newDevice && open.devices.length > 0}),
        room AS (
          SELECT ${MAX_REPORTED_FACTS} - count(*) AS n FROM attempt_timeline t
          WHERE t.attempt_id = ${open.id}::uuid AND t.kind NOT IN ('saved', 'extended', 'second_device'))
        INSERT INTO attempt_timeline (attempt_id, at, kind, detail)
        SELECT a.id, least(greatest(f.at, a.started_at), clock_timestamp()), f.kind,
          CASE WHEN f.detail ? 'seconds'
            THEN jsonb_set(f.detail, '{seconds}', to_jsonb(least((f.detail->>'seconds')::int, a.length)))
            ELSE f.detail END
        FROM a, room, ROWS FROM (jsonb_to_recordset(${facts}::jsonb) AS (at timestamptz, kind text, detail jsonb))
          WITH ORDINALITY AS f(at, kind, detail, n)
        WHERE f.n <= room.n`,
  );
  return true;
}

import { sql, type SQL } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';
import { likePattern } from './students-repository';
import type { Paper } from './attempt-records';
import type { Answer } from './version-records';

/** An attempt in progress as the Live screen lists it. */
export interface LiveRow {
  attemptId: string;
  studentId: string;
  name: string;
  email: string;
  attemptNumber: number;
  versionId: string;
  startedAt: Date;
  deadlineAt: Date;
  savedAt: Date | null;
  pageSeenAt: Date | null;
  answers: Answer[];
  /** The questions whose answer file is uploaded. */
  fileQuestionIds: string[];
  extraTimePercent: number;
  addedSeconds: number;
  /** The questions the attempt was given (null: all). */
  paper: Paper | null;
  /** The section the student's page last reported showing (its `section_reached`); null before any report. */
  pageSectionId: number | null;
}

interface LiveSqlRow {
  id: string;
  student_id: string;
  name: string;
  email: string;
  attempt_number: number;
  version_id: string;
  started_at: Date | string;
  deadline_at: Date | string;
  saved_at: Date | string | null;
  page_seen_at: Date | string | null;
  answers: Answer[];
  files: string[] | null;
  extra_time_percent: number;
  added_seconds: number;
  paper: Paper | null;
  page_section: number | null;
  total: number | string;
  now: Date | string;
}

const date = (v: Date | string) => new Date(v);
const maybeDate = (v: Date | string | null) => (v === null ? null : new Date(v));

/**
 * One page of the attempts in progress, least time left first, with their total and the database clock, in one
 * statement (the partial index on in-progress deadlines serves the order; a search filters by name or e-mail).
 */
export async function liveAttempts(
  runner: Runner,
  q: { search?: string; limit: number; offset: number },
): Promise<{ attempts: LiveRow[]; total: number; now: Date }> {
  const where: SQL[] = [sql`a.status = 'in_progress'`];
  if (q.search) {
    const p = likePattern(q.search);
    where.push(sql`(s.name ILIKE ${p} OR s.email ILIKE ${p})`);
  }
  const filter = sql.join(where, sql` AND `);
  // Without a search the count needs no student: the partial index of attempts in progress alone answers it.
  const counted = q.search ? sql`JOIN students s ON s.id = a.student_id` : sql``;
  // The page walks the partial index of in-progress deadlines and stops at its limit; the total is counted apart
  // (a window count over the join would read and sort every attempt in progress for each page).
  const found = await rows<LiveSqlRow>(
    runner,
    sql`WITH total AS (SELECT count(*) AS n FROM attempts a ${counted} WHERE ${filter}),
        page AS (
          SELECT a.id, a.student_id, s.name, s.email, a.attempt_number, a.version_id, a.started_at, a.deadline_at,
            a.saved_at, a.page_seen_at, a.answers, a.added_seconds, s.extra_time_percent, a.paper
          FROM attempts a JOIN students s ON s.id = a.student_id
          WHERE ${filter}
          ORDER BY a.deadline_at, a.id
          LIMIT ${q.limit} OFFSET ${q.offset})
        SELECT p.*, (SELECT array_agg(f.question_id) FROM attempt_files f WHERE f.attempt_id = p.id) AS files,
          (SELECT (t.detail->>'sectionId')::int FROM attempt_timeline t
            WHERE t.attempt_id = p.id AND t.kind = 'section_reached' ORDER BY t.id DESC LIMIT 1) AS page_section,
          total.n AS total, clock_timestamp() AS now
        FROM total LEFT JOIN page p ON true
        ORDER BY p.deadline_at, p.id`,
  );
  const total = Number(found[0]?.total ?? 0);
  const now = date(found[0]?.now ?? new Date());
  const listed = found.filter((r) => r.id !== null);
  return {
    attempts: listed.map((r) => ({
      attemptId: r.id,
      studentId: r.student_id,
      name: r.name,
      email: r.email,
      attemptNumber: r.attempt_number,
      versionId: r.version_id,
      startedAt: date(r.started_at),
      deadlineAt: date(r.deadline_at),
      savedAt: maybeDate(r.saved_at),
      pageSeenAt: maybeDate(r.page_seen_at),
      answers: r.answers,
      fileQuestionIds: r.files ?? [],
      extraTimePercent: r.extra_time_percent,
      addedSeconds: r.added_seconds,
      paper: r.paper,
      pageSectionId: r.page_section,
    })),
    total,
    now,
  };
}

/** An attempt an administrator acts on, with its student. */
export interface AdjustedAttempt {
  attemptId: string;
  studentId: string;
  name: string;
  email: string;
  attemptNumber: number;
  deadlineAt: Date;
  addedSeconds: number;
  now: Date;
}

interface AdjustedSqlRow {
  id: string;
  student_id: string;
  name: string;
  email: string;
  attempt_number: number;
  deadline_at: Date | string;
  added_seconds: number;
  now: Date | string;
}

const toAdjusted = (r: AdjustedSqlRow): AdjustedAttempt => ({
  attemptId: r.id,
  studentId: r.student_id,
  name: r.name,
  email: r.email,
  attemptNumber: r.attempt_number,
  deadlineAt: date(r.deadline_at),
  addedSeconds: r.added_seconds,
  now: date(r.now),
});

/** The most seconds administrators may add to an attempt: `maxMultiple` times its version's (`v`) limit. */
const addedSecondsCap = (maxMultiple: number) =>
  sql`floor(v.time_limit_minutes * 60 * ${maxMultiple}::numeric)`;

/**
 * Adds time to an attempt still in progress and within its deadline and grace, as long as the time administrators
 * added in all stays within `maxMultiple` times the version's time limit, in one statement: extensions of one
 * attempt at once apply one after another (each waits for the row the one before wrote, and PostgreSQL checks the
 * conditions again on that row), so each adds to what the others added and none gets past the cap. The extension
 * is noted on the attempt's timeline with who gave it, in the same statement. Undefined when the attempt is not
 * open or the time does not fit.
 */
export async function extendAttempt(
  runner: Runner,
  a: { attemptId: string; seconds: number; graceSeconds: number; maxMultiple: number; actorId: string },
): Promise<AdjustedAttempt | undefined> {
  const detail = JSON.stringify({ minutes: Math.round(a.seconds / 60), actorId: a.actorId });
  const [row] = await rows<AdjustedSqlRow>(
    runner,
    sql`WITH extended AS (
          UPDATE attempts a SET deadline_at = a.deadline_at + make_interval(secs => ${a.seconds}),
            added_seconds = a.added_seconds + ${a.seconds}
          FROM students s, assessment_versions v
          WHERE a.id = ${a.attemptId}::uuid AND s.id = a.student_id AND v.version_id = a.version_id
            AND a.status = 'in_progress'
            AND a.deadline_at + make_interval(secs => ${a.graceSeconds}) >= clock_timestamp()
            AND a.added_seconds + ${a.seconds} <= ${addedSecondsCap(a.maxMultiple)}
          RETURNING a.id, a.student_id, s.name, s.email, a.attempt_number, a.deadline_at, a.added_seconds,
            clock_timestamp() AS now),
        noted AS (
          INSERT INTO attempt_timeline (attempt_id, at, kind, detail)
          SELECT id, now, 'extended', ${detail}::jsonb FROM extended)
        SELECT * FROM extended`,
  );
  return row && toAdjusted(row);
}

/** Why an extension wrote nothing: the attempt, whether it is open, the time added to it and its time limit. */
export interface ExtensionRoom {
  open: boolean;
  addedSeconds: number;
  timeLimitMinutes: number;
  capSeconds: number;
}

/** Where an attempt stands for an extension; undefined when there is no such attempt. */
export async function extensionRoom(
  runner: Runner,
  a: { attemptId: string; graceSeconds: number; maxMultiple: number },
): Promise<ExtensionRoom | undefined> {
  const [row] = await rows<{
    open: boolean;
    added_seconds: number;
    time_limit_minutes: number;
    cap_seconds: number | string;
  }>(
    runner,
    sql`SELECT a.status = 'in_progress'
             AND a.deadline_at + make_interval(secs => ${a.graceSeconds}) >= clock_timestamp() AS open,
           a.added_seconds, v.time_limit_minutes,
           ${addedSecondsCap(a.maxMultiple)} AS cap_seconds
        FROM attempts a JOIN assessment_versions v ON v.version_id = a.version_id
        WHERE a.id = ${a.attemptId}::uuid`,
  );
  return (
    row && {
      open: row.open,
      addedSeconds: row.added_seconds,
      timeLimitMinutes: row.time_limit_minutes,
      capSeconds: Number(row.cap_seconds),
    }
  );
}

/**
 * A student's extra time changed: their attempt in progress gets the time it now allows (the version's limit
 * plus the extra time plus what administrators added), never less than it already has.
 */
export async function applyExtraTime(runner: Runner, studentId: string, percent: number): Promise<void> {
  await runner.execute(
    sql`UPDATE attempts a SET deadline_at = GREATEST(a.deadline_at, a.started_at
          + make_interval(secs => round(v.time_limit_minutes * 60 * (1 + ${percent}::numeric / 100))::int
            + a.added_seconds))
        FROM assessment_versions v
        WHERE a.student_id = ${studentId}::uuid AND a.status = 'in_progress' AND v.version_id = a.version_id`,
  );
}

/** What a student's page is told about its attempt. */
export interface AttemptClock {
  attemptId: string;
  inProgress: boolean;
  deadlineAt: Date;
  addedSeconds: number;
  now: Date;
}

interface ClockSqlRow {
  id: string;
  status: string;
  deadline_at: Date | string;
  added_seconds: number;
  now: Date | string;
}

const toClock = (r: ClockSqlRow): AttemptClock => ({
  attemptId: r.id,
  inProgress: r.status === 'in_progress',
  deadlineAt: date(r.deadline_at),
  addedSeconds: r.added_seconds,
  now: date(r.now),
});

/**
 * The newest attempt of the link's student, its page marked as seen when it is in progress, in one statement.
 * `student` is null for an unknown link; `attempt` null when the student never started.
 */
export async function pageOpened(
  runner: Runner,
  tokenHash: Buffer,
): Promise<{ student: { status: string; expiresAt: Date } | null; attempt: AttemptClock | null }> {
  const [row] = await rows<
    ClockSqlRow & { student_status: string | null; expires_at: Date | string | null; id: string | null }
  >(
    runner,
    sql`WITH st AS (SELECT id, status, expires_at FROM students WHERE token_hash = ${tokenHash}),
        latest AS (SELECT a.id, a.status, a.deadline_at, a.added_seconds FROM attempts a
          WHERE a.student_id = (SELECT id FROM st) ORDER BY a.attempt_number DESC LIMIT 1),
        seen AS (UPDATE attempts SET page_seen_at = clock_timestamp()
          WHERE id = (SELECT id FROM latest) AND status = 'in_progress' RETURNING id)
        SELECT st.status AS student_status, st.expires_at, l.id, l.status, l.deadline_at, l.added_seconds,
          clock_timestamp() AS now
        FROM (SELECT 1) one LEFT JOIN st ON true LEFT JOIN latest l ON true`,
  );
  if (!row?.student_status) return { student: null, attempt: null };
  return {
    student: { status: row.student_status, expiresAt: date(row.expires_at!) },
    attempt: row.id ? toClock(row) : null,
  };
}

/**
 * The clocks of the attempts whose pages this replica streams to, in one statement; with `seen`, those still in
 * progress are marked as seen. An attempt missing from the answer is gone (its student was erased).
 */
export async function attemptClocks(runner: Runner, ids: string[], seen: boolean): Promise<AttemptClock[]> {
  const list = sql`${`{${ids.join(',')}}`}::uuid[]`;
  const found = await rows<ClockSqlRow>(
    runner,
    seen
      ? sql`WITH seen AS (UPDATE attempts SET page_seen_at = clock_timestamp()
              WHERE id = ANY(${list}) AND status = 'in_progress' RETURNING id)
            SELECT a.id, a.status, a.deadline_at, a.added_seconds, clock_timestamp() AS now
            FROM attempts a WHERE a.id = ANY(${list})`
      : sql`SELECT a.id, a.status, a.deadline_at, a.added_seconds, clock_timestamp() AS now
            FROM attempts a WHERE a.id = ANY(${list})`,
  );
  return found.map(toClock);
}

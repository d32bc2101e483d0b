import { sql, type SQL } from 'drizzle-orm';
import type { Language } from '@readiness/contracts';
import { rows, type Runner } from '@readiness/kit/db';
import { enqueueWith, type OutboxEvent } from '@readiness/kit/outbox';
import {
  ATTEMPT_JSON,
  FILES_JSON,
  STUDENT_COLUMNS,
  date,
  toAttempt,
  toFile,
  toTokenStudent,
  type AttemptFile,
  type AttemptJson,
  type AttemptRecord,
  type FileJson,
  type FinalisedBy,
  type StudentRow,
  type TokenStudent,
} from './attempt-records';
import type { Answer } from './version-records';
import { ACTIVE_VERSION_JSON, type ActiveVersion } from './versions-repository';
import { TIMELINE_JSON, toTimeline, type TimelineJson, type TimelineRow } from './timeline-repository';

/* Attempts and their answers: what the student's flow reads in one statement, and each write it makes. */

/** Where a student stands when Start or Submit decides. */
export interface Standing {
  student: TokenStudent;
  /** The attempt in progress, with its files and its timeline so far. */
  current: (AttemptRecord & { files: AttemptFile[]; timeline: TimelineRow[] }) | null;
  newest: AttemptRecord | null;
  /** The attempt an attempt id names, when one was given and is the student's. */
  byId: AttemptRecord | null;
  /** The attempt an Idempotency-Key was first submitted with, when one was given. */
  byKey: AttemptRecord | null;
  passed: boolean;
  lastNumber: number;
  /** The version a new attempt is pinned to: the active one, if any was ever published as active. */
  active: ActiveVersion | null;
  now: Date;
}

/**
 * The student behind a token hash with the attempt in progress, the newest attempt, the attempt an id or an
 * Idempotency-Key names, whether a result passed, and the active version: one statement and no lock. Start and
 * Submit decide on it and write with a condition that fails if what they read changed meanwhile (the attempt
 * number taken, the attempt no longer in progress, its files changed), and then read again.
 */
export async function standing(
  runner: Runner,
  tokenHash: Buffer,
  name: { attemptId?: string; idempotencyKey?: string } = {},
): Promise<Standing | undefined> {
  const byId = name.attemptId === undefined ? sql`false` : sql`a.id = ${name.attemptId}::uuid`;
  const byKey =
    name.idempotencyKey === undefined ? sql`false` : sql`a.idempotency_key = ${name.idempotencyKey}`;
  const [row] = await rows<
    StudentRow & {
      current: (AttemptJson & { files: FileJson[]; timeline: TimelineJson }) | null;
      newest: AttemptJson | null;
      by_id: AttemptJson | null;
      by_key: AttemptJson | null;
      passed: boolean;
      active: ActiveVersion | null;
      now: Date | string;
    }
  >(
    runner,
    sql`SELECT ${STUDENT_COLUMNS},
          (SELECT ${ATTEMPT_JSON}::jsonb || jsonb_build_object('files', ${FILES_JSON}, 'timeline', ${TIMELINE_JSON})
             FROM attempts a WHERE a.student_id = s.id AND a.status = 'in_progress') AS current,
          (SELECT ${ATTEMPT_JSON} FROM attempts a WHERE a.student_id = s.id
             ORDER BY a.attempt_number DESC LIMIT 1) AS newest,
          (SELECT ${ATTEMPT_JSON} FROM attempts a WHERE a.student_id = s.id AND ${byId}) AS by_id,
          (SELECT ${ATTEMPT_JSON} FROM attempts a WHERE a.student_id = s.id AND ${byKey}) AS by_key,
          EXISTS (SELECT 1 FROM results r WHERE r.student_id = s.id AND r.passed) AS passed,
          ${ACTIVE_VERSION_JSON} AS active,
          clock_timestamp() AS now
        FROM students s WHERE s.token_hash = ${tokenHash}`,
  );
  if (!row) return undefined;
  const newest = row.newest ? toAttempt(row.newest) : null;
  return {
    student: toTokenStudent(row),
    current: row.current
      ? {
          ...toAttempt(row.current),
          files: row.current.files.map(toFile),
          timeline: toTimeline(row.current.timeline),
        }
      : null,
    newest,
    byId: row.by_id ? toAttempt(row.by_id) : null,
    byKey: row.by_key ? toAttempt(row.by_key) : null,
    passed: row.passed,
    lastNumber: newest?.attemptNumber ?? 0,
    active: row.active,
    now: date(row.now),
  };
}

/**
 * Inserts a new attempt pinned to a version (its number and times decided by the caller from the standing it
 * read), the student marked started and its started event in the outbox, in one statement. Nothing is written,
 * and false returned, when the standing changed meanwhile: another Start took the number or left an attempt in
 * progress (the unique attempt number and the partial unique index allow one of each), a result passed, or the
 * student was erased.
 */
export async function insertAttempt(
  runner: Runner,
  a: AttemptRecord,
  started: OutboxEvent,
): Promise<boolean> {
  const written = await enqueueWith(
    runner,
    sql`INSERT INTO attempts (id, student_id, attempt_number, version_id, started_at, deadline_at, paper, language)
      SELECT ${a.id}::uuid, s.id, ${a.attemptNumber}, ${a.versionId},
             ${a.startedAt.toISOString()}::timestamptz, ${a.deadlineAt.toISOString()}::timestamptz,
             ${a.paper === null ? null : JSON.stringify(a.paper)}::jsonb, ${a.language}
      FROM students s WHERE s.id = ${a.studentId}::uuid
        AND NOT EXISTS (SELECT 1 FROM results r WHERE r.student_id = s.id AND r.passed)
      ON CONFLICT DO NOTHING
      RETURNING id`,
    started,
    (inserted) => [
      sql`UPDATE students SET status = 'started'
          WHERE id = ${a.studentId}::uuid AND status = 'invited' AND ${inserted}`,
    ],
  );
  return written !== undefined;
}

/** The student behind a token and one of their attempts (null when the id is not theirs), one round trip. */
export async function studentAttempt(
  runner: Runner,
  tokenHash: Buffer,
  attemptId: string | null,
): Promise<{ student: TokenStudent; attempt: AttemptRecord | null; now: Date } | undefined> {
  const [row] = await rows<StudentRow & { attempt: AttemptJson | null; now: Date | string }>(
    runner,
    sql`SELECT ${STUDENT_COLUMNS}, clock_timestamp() AS now,
          (SELECT ${ATTEMPT_JSON} FROM attempts a WHERE a.student_id = s.id AND
             ${attemptId === null ? sql`a.status = 'in_progress'` : sql`a.id = ${attemptId}::uuid`}) AS attempt
        FROM students s WHERE s.token_hash = ${tokenHash}`,
  );
  return (
    row && {
      student: toTokenStudent(row),
      attempt: row.attempt ? toAttempt(row.attempt) : null,
      now: date(row.now),
    }
  );
}

/**
 * Keeps an autosave only when its sequence is newer than the one held and the attempt is still open (in progress
 * and within the grace after its deadline); an autosave made before the deadline is also kept as the answers
 * that count when a submit comes later than the grace. With `owner`, only when the attempt is the student's whose
 * link hashes to it: the whole autosave in one statement, the save noted on the attempt's timeline in it. Never
 * for a question the attempt was not given (its paper). Undefined when nothing was written.
 */
export async function saveAnswers(
  runner: Runner,
  a: {
    attemptId: string;
    seq: number;
    answers: Answer[];
    /** Every question the autosave names (an empty answer too): all must be on the attempt's paper, if it has one. */
    questionIds: string[];
    graceSeconds: number;
    owner?: Buffer;
  },
): Promise<{ seq: number; savedAt: Date; now: Date } | undefined> {
  const answers = JSON.stringify(a.answers);
  const owned =
    a.owner === undefined
      ? sql``
      : sql`AND student_id = (SELECT s.id FROM students s WHERE s.token_hash = ${a.owner})`;
  const [row] = await rows<{ seq: string | number; saved_at: Date | string; now: Date | string }>(
    runner,
    sql`WITH saved AS (
          UPDATE attempts SET answers = ${answers}::jsonb, seq = ${a.seq}, saved_at = clock_timestamp(),
            deadline_answers = CASE WHEN clock_timestamp() <= deadline_at THEN ${answers}::jsonb
                                    ELSE deadline_answers END
          WHERE id = ${a.attemptId} AND status = 'in_progress' AND seq < ${a.seq}
            AND clock_timestamp() <= deadline_at + make_interval(secs => ${a.graceSeconds}) ${owned}
            AND (paper IS NULL OR paper->'questionIds' @> ${JSON.stringify(a.questionIds)}::jsonb)
          RETURNING id, seq, saved_at),
        noted AS (INSERT INTO attempt_timeline (attempt_id, at, kind) SELECT id, saved_at, 'saved' FROM saved)
        SELECT seq, saved_at, clock_timestamp() AS now FROM saved`,
  );
  return row && { seq: Number(row.seq), savedAt: date(row.saved_at), now: date(row.now) };
}

/**
 * Ends an attempt in progress with the answers that count, at a time the caller read from the database clock, and
 * puts its submitted event in the outbox, in one statement: only when the attempt was still in progress with the
 * files the caller read (`filesSeq`), so the event says exactly what was ended. Nothing is written, and false
 * returned, when another request or the deadline job ended it first, or a file changed meanwhile.
 */
export async function closeAttempt(
  runner: Runner,
  c: {
    attemptId: string;
    filesSeq: number;
    submittedAt: Date;
    timeSpentMinutes: number;
    answers: Answer[];
    finalisedBy: FinalisedBy;
    gradedFromAutosave: boolean;
    idempotencyKey: string | null;
    /** The administrator who ended it (finalisedBy 'admin'). */
    endedBy?: string;
  },
  submitted: OutboxEvent,
): Promise<boolean> {
  const written = await enqueueWith(
    runner,
    sql`UPDATE attempts SET status = 'submitted', submitted_at = ${c.submittedAt.toISOString()}::timestamptz,
        answers = ${JSON.stringify(c.answers)}::jsonb, finalised_by = ${c.finalisedBy},
        graded_from_autosave = ${c.gradedFromAutosave}, idempotency_key = ${c.idempotencyKey},
        time_spent_minutes = ${c.timeSpentMinutes}, ended_by = ${c.endedBy ?? null}::uuid
      WHERE id = ${c.attemptId}::uuid AND status = 'in_progress' AND files_seq = ${c.filesSeq}
      RETURNING id`,
    submitted,
  );
  return written !== undefined;
}

/**
 * The deadlines that have passed with their grace, as a bound the partial index of in-progress deadlines can seek
 * to: the clock read once by a sub-select (a volatile `clock_timestamp()` compared row by row, or added to the
 * column, has every in-progress attempt read at each tick of the deadline job).
 */
const overdueBefore = (graceSeconds: number) =>
  sql`(SELECT clock_timestamp() - make_interval(secs => ${graceSeconds}))`;

/** Whether any attempt is past its deadline and grace with no submit: the deadline job's one idle statement. */
export async function anyOverdue(runner: Runner, graceSeconds: number): Promise<boolean> {
  const [row] = await rows<{ any: boolean }>(
    runner,
    sql`SELECT EXISTS (SELECT 1 FROM attempts
          WHERE status = 'in_progress' AND deadline_at < ${overdueBefore(graceSeconds)}
        ) AS any`,
  );
  return row?.any ?? false;
}

type LockedAttempt = AttemptRecord & {
  name: string;
  email: string;
  files: AttemptFile[];
  timeline: TimelineRow[];
  now: Date;
};

/** Attempts that meet `where`, locked for this transaction as `lock` says, with what ending one needs. */
async function lockedAttempts(
  runner: Runner,
  where: SQL,
  limit: number,
  lock: SQL,
): Promise<LockedAttempt[]> {
  const found = await rows<{
    attempt: AttemptJson;
    name: string;
    email: string;
    files: FileJson[];
    timeline: TimelineJson;
    now: Date | string;
  }>(
    runner,
    sql`SELECT ${ATTEMPT_JSON} AS attempt, s.name, s.email, ${FILES_JSON} AS files, ${TIMELINE_JSON} AS timeline,
          clock_timestamp() AS now
        FROM attempts a JOIN students s ON s.id = a.student_id
        WHERE ${where}
        ORDER BY a.deadline_at LIMIT ${limit}
        ${lock}`,
  );
  return found.map((r) => ({
    ...toAttempt(r.attempt),
    name: r.name,
    email: r.email,
    files: r.files.map(toFile),
    timeline: toTimeline(r.timeline),
    now: date(r.now),
  }));
}

/**
 * Attempts in progress whose deadline and grace have passed, locked for this transaction and skipped by every
 * other replica's (FOR UPDATE SKIP LOCKED), with their student's name and e-mail, their files and
 * the database clock's time.
 */
export const claimOverdue = (runner: Runner, graceSeconds: number, limit: number) =>
  lockedAttempts(
    runner,
    sql`a.status = 'in_progress' AND a.deadline_at < ${overdueBefore(graceSeconds)}`,
    limit,
    sql`FOR UPDATE OF a SKIP LOCKED`,
  );

/**
 * One attempt whatever its status, locked for this transaction (waiting for a submit or the deadline job that
 * holds it, so the caller then sees it ended), with what ending it needs; undefined when there is none.
 */
export const lockAttempt = async (runner: Runner, attemptId: string) =>
  (await lockedAttempts(runner, sql`a.id = ${attemptId}::uuid`, 1, sql`FOR UPDATE OF a`))[0];
/**
 * The student's own language switch, in one statement: kept on the student behind the token and on their attempt
 * in progress (its result's mail and certificate follow it). Undefined when no student has this link.
 */
export async function setLanguage(
  runner: Runner,
  tokenHash: Buffer,
  language: Language,
): Promise<TokenStudent | undefined> {
  const [row] = await rows<StudentRow>(
    runner,
    sql`WITH s AS (
          UPDATE students SET language = ${language} WHERE token_hash = ${tokenHash}
          RETURNING id, name, email, status, extra_time_percent, language, expires_at),
        a AS (
          UPDATE attempts SET language = ${language} FROM s
          WHERE attempts.student_id = s.id AND attempts.status = 'in_progress')
        SELECT * FROM s`,
  );
  return row && toTokenStudent(row);
}

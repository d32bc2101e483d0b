import { sql, type SQL } from 'drizzle-orm';
import { shownPercentage, type Language } from '@readiness/contracts';
import { rows, type Runner } from '@readiness/kit/db';
import type { Answer, AssessmentVersion } from './version-records';
import type { StudentStatus } from './students-repository';
import { ACTIVE_VERSION_JSON, type ActiveVersion } from './versions-repository';
import { TIMELINE_JSON, toTimeline, type TimelineJson, type TimelineRow } from './timeline-repository';

export type AttemptStatus = 'in_progress' | 'submitted' | 'scored';
/** Who ended an attempt: its student, the deadline job, or an administrator from the Live screen. */
export type FinalisedBy = 'student' | 'deadline' | 'admin';

export interface AttemptFile {
  id: string;
  questionId: string;
  objectKey: string;
  originalName: string;
  size: number;
  mimetype: string;
  uploadedAt: Date;
}

/**
 * The questions an attempt was given and the order it shows them (issue 26): a section's draw of N of its M
 * questions, the questions shuffled within each section, the options of multiple-choice questions shuffled. Drawn
 * once when the attempt starts from a seed kept with it; null when the version draws and shuffles nothing, which is
 * every question in the version's order.
 */
export interface Paper {
  seed: number;
  /** Every question given, section by section in the version's order of sections, in the order shown. */
  questionIds: string[];
  /** Multiple-choice option ids in the order shown, when options are shuffled. */
  options: Record<string, string[]>;
}

export interface AttemptRecord {
  id: string;
  studentId: string;
  attemptNumber: number;
  versionId: string;
  status: AttemptStatus;
  startedAt: Date;
  deadlineAt: Date;
  seq: number;
  answers: Answer[];
  deadlineAnswers: Answer[];
  savedAt: Date | null;
  submittedAt: Date | null;
  idempotencyKey: string | null;
  /** Changes to the attempt's answer files so far (uploads and removals). */
  filesSeq: number;
  /** The questions it was given and their order (null: the whole version in order). */
  paper: Paper | null;
  /** The language it is taken in: set at Start, changed by the student's switch; null: not known (English). */
  language: Language | null;
}

/** The student's copy of a result, shaped as the student sees it (api.md StudentResult). */
export type StudentResultBody = Record<string, unknown> & { _id: string; attemptId: string; passed: boolean };

interface Figures {
  score: number;
  totalPoints: number;
  percentage: number;
}

/**
 * A copy with its percentages as every surface shows them, from its points (docs/scoring.md): the event carries
 * the whole percent, rounded, which shows a 69.5 % fail as 70 %, and copies kept before issue 43 hold it.
 */
export function shown(body: StudentResultBody): StudentResultBody;
export function shown(body: StudentResultBody | null): StudentResultBody | null;
export function shown(body: StudentResultBody | null): StudentResultBody | null {
  if (!body) return body;
  const percentage = (f: Figures) => shownPercentage(f.score, f.totalPoints);
  const sections = body.sections as Figures[] | undefined;
  return {
    ...body,
    percentage: percentage(body as unknown as Figures),
    ...(sections ? { sections: sections.map((s) => ({ ...s, percentage: percentage(s) })) } : {}),
  };
}

/** A student found by their link, with what the flow needs to decide. */
export interface TokenStudent {
  id: string;
  name: string;
  email: string;
  status: StudentStatus;
  extraTimePercent: number;
  /** Chosen at invitation or by the student's last switch; null: not chosen. */
  language: Language | null;
  expiresAt: Date;
}

const date = (v: Date | string) => new Date(v);
const maybeDate = (v: Date | string | null) => (v === null ? null : new Date(v));

const ATTEMPT_JSON = sql`json_build_object(
  'id', a.id, 'studentId', a.student_id, 'attemptNumber', a.attempt_number, 'versionId', a.version_id,
  'status', a.status, 'startedAt', a.started_at, 'deadlineAt', a.deadline_at, 'seq', a.seq,
  'answers', a.answers, 'deadlineAnswers', a.deadline_answers, 'savedAt', a.saved_at,
  'submittedAt', a.submitted_at, 'idempotencyKey', a.idempotency_key, 'filesSeq', a.files_seq, 'paper', a.paper,
  'language', a.language)`;

type AttemptJson = Omit<AttemptRecord, 'startedAt' | 'deadlineAt' | 'savedAt' | 'submittedAt' | 'seq'> & {
  startedAt: string;
  deadlineAt: string;
  savedAt: string | null;
  submittedAt: string | null;
  seq: number | string;
};

const toAttempt = (a: AttemptJson): AttemptRecord => ({
  ...a,
  seq: Number(a.seq),
  startedAt: date(a.startedAt),
  deadlineAt: date(a.deadlineAt),
  savedAt: maybeDate(a.savedAt),
  submittedAt: maybeDate(a.submittedAt),
});

const FILES_JSON = sql`coalesce((SELECT json_agg(json_build_object('id', f.id, 'questionId', f.question_id,
  'objectKey', f.object_key, 'originalName', f.original_name, 'size', f.size, 'mimetype', f.mimetype,
  'uploadedAt', f.uploaded_at) ORDER BY f.question_id) FROM attempt_files f WHERE f.attempt_id = a.id), '[]'::json)`;

type FileJson = Omit<AttemptFile, 'uploadedAt' | 'size'> & { uploadedAt: string; size: number | string };
const toFile = (f: FileJson): AttemptFile => ({ ...f, size: Number(f.size), uploadedAt: date(f.uploadedAt) });

/** A result copy as the student sees it: its body with the certificate link while the link is unexpired. */
const RESULT_BODY = sql`(r.body || jsonb_build_object('certificateUrl',
  CASE WHEN r.certificate_url_expires_at > clock_timestamp() THEN r.certificate_url END))`;

const STUDENT_COLUMNS = sql`s.id, s.name, s.email, s.status, s.extra_time_percent, s.language, s.expires_at`;
interface StudentRow {
  id: string;
  name: string;
  email: string;
  status: StudentStatus;
  extra_time_percent: number;
  language: Language | null;
  expires_at: Date | string;
}
const toTokenStudent = (r: StudentRow): TokenStudent => ({
  id: r.id,
  name: r.name,
  email: r.email,
  status: r.status,
  extraTimePercent: r.extra_time_percent,
  language: r.language,
  expiresAt: date(r.expires_at),
});

/** What loading the assessment needs, fetched in one statement (the enrolment-peak hot path). */
export interface AssessmentPage {
  student: TokenStudent;
  /** The attempt in progress's version, else the active one; null when no version was ever published as active. */
  versionId: string | null;
  /** That version's content, unless it is one of `cachedVersionIds` (the caller holds it). */
  content: AssessmentVersion | null;
  attempt: (AttemptRecord & { files: AttemptFile[] }) | null;
  latest: StudentResultBody | null;
  passed: StudentResultBody | null;
  awaitingResult: boolean;
  serverNow: Date;
}

/**
 * The student behind a token hash, the version they take (the one their attempt in progress is pinned to, else
 * the active one; its content only when the caller's cache does not hold it), the attempt in progress with its files, the newest result, the newest passed result and whether a
 * submission waits for its result: one statement, one round trip.
 */
export async function assessmentPage(
  runner: Runner,
  tokenHash: Buffer,
  cachedVersionIds: string[],
): Promise<AssessmentPage | undefined> {
  const [row] = await rows<
    StudentRow & {
      version_id: string | null;
      content: AssessmentVersion | null;
      attempt: (AttemptJson & { files: FileJson[] }) | null;
      latest: StudentResultBody | null;
      passed: StudentResultBody | null;
      awaiting: boolean;
      server_now: Date | string;
    }
  >(
    runner,
    sql`SELECT ${STUDENT_COLUMNS}, v.version_id,
          CASE WHEN NOT jsonb_exists(${JSON.stringify(cachedVersionIds)}::jsonb, v.version_id)
               THEN v.content END AS content,
          (SELECT ${ATTEMPT_JSON}::jsonb || jsonb_build_object('files', ${FILES_JSON})
             FROM attempts a WHERE a.student_id = s.id AND a.status = 'in_progress') AS attempt,
          (SELECT ${RESULT_BODY} FROM results r WHERE r.student_id = s.id ORDER BY r.completed_at DESC LIMIT 1) AS latest,
          (SELECT ${RESULT_BODY} FROM results r WHERE r.student_id = s.id AND r.passed
             ORDER BY r.completed_at DESC LIMIT 1) AS passed,
          EXISTS (SELECT 1 FROM attempts a WHERE a.student_id = s.id AND a.status = 'submitted') AS awaiting,
          clock_timestamp() AS server_now
        FROM students s
        LEFT JOIN LATERAL (SELECT p.version_id FROM attempts p
                           WHERE p.student_id = s.id AND p.status = 'in_progress') pinned ON true
        LEFT JOIN LATERAL (SELECT version_id, content FROM assessment_versions
                           WHERE version_id = pinned.version_id
                              OR (pinned.version_id IS NULL AND active_since IS NOT NULL)
                           ORDER BY active_since DESC NULLS LAST LIMIT 1) v ON true
        WHERE s.token_hash = ${tokenHash}`,
  );
  if (!row) return undefined;
  return {
    student: toTokenStudent(row),
    versionId: row.version_id,
    content: row.content,
    attempt: row.attempt ? { ...toAttempt(row.attempt), files: row.attempt.files.map(toFile) } : null,
    latest: shown(row.latest),
    passed: shown(row.passed),
    awaitingResult: row.awaiting,
    serverNow: date(row.server_now),
  };
}

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

/** A new attempt's record as the database keeps it once inserted (its defaults included). */
export const newAttemptRecord = (a: {
  id: string;
  studentId: string;
  attemptNumber: number;
  versionId: string;
  startedAt: Date;
  deadlineAt: Date;
  paper: Paper | null;
  language: Language | null;
}): AttemptRecord => ({
  ...a,
  status: 'in_progress',
  seq: 0,
  answers: [],
  deadlineAnswers: [],
  savedAt: null,
  submittedAt: null,
  idempotencyKey: null,
  filesSeq: 0,
});

/**
 * Inserts a new attempt pinned to a version (its number and times decided by the caller from the standing it
 * read), for `enqueueWith`: the change returns a row only when the attempt was written, and the student is marked
 * started alongside it. Nothing is written when the standing changed meanwhile: another Start took the number or
 * left an attempt in progress (the unique attempt number and the partial unique index allow one of each), a result
 * passed, or the student was erased.
 */
export function insertAttempt(a: AttemptRecord): { change: SQL; alongside: (inserted: SQL) => SQL[] } {
  return {
    change: sql`INSERT INTO attempts (id, student_id, attempt_number, version_id, started_at, deadline_at, paper, language)
      SELECT ${a.id}::uuid, s.id, ${a.attemptNumber}, ${a.versionId},
             ${a.startedAt.toISOString()}::timestamptz, ${a.deadlineAt.toISOString()}::timestamptz,
             ${a.paper === null ? null : JSON.stringify(a.paper)}::jsonb, ${a.language}
      FROM students s WHERE s.id = ${a.studentId}::uuid
        AND NOT EXISTS (SELECT 1 FROM results r WHERE r.student_id = s.id AND r.passed)
      ON CONFLICT DO NOTHING
      RETURNING id`,
    alongside: (inserted) => [
      sql`UPDATE students SET status = 'started'
          WHERE id = ${a.studentId}::uuid AND status = 'invited' AND ${inserted}`,
    ],
  };
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

export async function attemptFiles(runner: Runner, attemptId: string): Promise<AttemptFile[]> {
  const [row] = await rows<{ files: FileJson[] }>(
    runner,
    sql`SELECT ${FILES_JSON} AS files FROM (SELECT ${attemptId}::uuid AS id) a`,
  );
  return (row?.files ?? []).map(toFile);
}

/**
 * Records a question's answer file while the attempt is open, replacing the one before, in one statement: the
 * attempt is checked and its files count moved on in it (a submit that closed it first leaves nothing written;
 * a submit that read the files before this leaves the attempt open and reads again), and the replaced
 * file's object key comes back from the row it replaced. `written: false` when the attempt closed meanwhile.
 */
export async function upsertFile(
  runner: Runner,
  f: {
    attemptId: string;
    questionId: string;
    objectKey: string;
    originalName: string;
    size: number;
    mimetype: string;
    graceSeconds: number;
  },
): Promise<{ written: boolean; file?: AttemptFile; replacedKey?: string }> {
  const [row] = await rows<{ file: FileJson; replaced_key: string | null }>(
    runner,
    sql`WITH a AS (
          UPDATE attempts SET files_seq = files_seq + 1
          WHERE id = ${f.attemptId} AND status = 'in_progress'
            AND clock_timestamp() <= deadline_at + make_interval(secs => ${f.graceSeconds})
          RETURNING id),
        f AS (
          INSERT INTO attempt_files (attempt_id, question_id, object_key, original_name, size, mimetype)
          SELECT a.id, ${f.questionId}, ${f.objectKey}, ${f.originalName}, ${f.size}, ${f.mimetype} FROM a
          ON CONFLICT (attempt_id, question_id) DO UPDATE SET id = gen_random_uuid(),
            object_key = EXCLUDED.object_key, original_name = EXCLUDED.original_name, size = EXCLUDED.size,
            mimetype = EXCLUDED.mimetype, uploaded_at = clock_timestamp(), replaced_key = attempt_files.object_key
          RETURNING *)
        SELECT json_build_object('id', f.id, 'questionId', f.question_id, 'objectKey', f.object_key,
          'originalName', f.original_name, 'size', f.size, 'mimetype', f.mimetype, 'uploadedAt', f.uploaded_at)
          AS file, f.replaced_key FROM f`,
  );
  if (!row) return { written: false };
  return { written: true, file: toFile(row.file), replacedKey: row.replaced_key ?? undefined };
}

/** Removes a question's file from the student's attempt in progress; returns its object key. */
export async function deleteFile(
  runner: Runner,
  studentId: string,
  questionId: string,
): Promise<string | undefined> {
  const [row] = await rows<{ object_key: string }>(
    runner,
    sql`WITH a AS (
          UPDATE attempts SET files_seq = files_seq + 1
          WHERE student_id = ${studentId} AND status = 'in_progress'
            AND EXISTS (SELECT 1 FROM attempt_files f WHERE f.attempt_id = attempts.id AND f.question_id = ${questionId})
          RETURNING id)
        DELETE FROM attempt_files f USING a WHERE f.attempt_id = a.id AND f.question_id = ${questionId}
        RETURNING f.object_key`,
  );
  return row?.object_key;
}

/**
 * Ends an attempt in progress with the answers that count, at a time the caller read from the database clock, for
 * `enqueueWith`: a row comes back only when the attempt was still in progress with the files the caller read
 * (`filesSeq`), so its submitted event says exactly what was ended. Nothing is written when another request or
 * the deadline job ended it first, or a file changed meanwhile.
 */
export function closeAttempt(c: {
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
}): SQL {
  return sql`UPDATE attempts SET status = 'submitted', submitted_at = ${c.submittedAt.toISOString()}::timestamptz,
      answers = ${JSON.stringify(c.answers)}::jsonb, finalised_by = ${c.finalisedBy},
      graded_from_autosave = ${c.gradedFromAutosave}, idempotency_key = ${c.idempotencyKey},
      time_spent_minutes = ${c.timeSpentMinutes}, ended_by = ${c.endedBy ?? null}::uuid
    WHERE id = ${c.attemptId}::uuid AND status = 'in_progress' AND files_seq = ${c.filesSeq}
    RETURNING id`;
}

/** Whether any attempt is past its deadline and grace with no submit: the deadline job's one idle statement. */
export async function anyOverdue(runner: Runner, graceSeconds: number): Promise<boolean> {
  const [row] = await rows<{ any: boolean }>(
    runner,
    sql`SELECT EXISTS (SELECT 1 FROM attempts
          WHERE status = 'in_progress' AND deadline_at + make_interval(secs => ${graceSeconds}) < clock_timestamp()
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
    sql`a.status = 'in_progress' AND a.deadline_at + make_interval(secs => ${graceSeconds}) < clock_timestamp()`,
    limit,
    sql`FOR UPDATE OF a SKIP LOCKED`,
  );

/**
 * One attempt whatever its status, locked for this transaction (waiting for a submit or the deadline job that
 * holds it, so the caller then sees it ended), with what ending it needs; undefined when there is none.
 */
export const lockAttempt = async (runner: Runner, attemptId: string) =>
  (await lockedAttempts(runner, sql`a.id = ${attemptId}::uuid`, 1, sql`FOR UPDATE OF a`))[0];

export async function resultOf(runner: Runner, attemptId: string): Promise<StudentResultBody | undefined> {
  const [row] = await rows<{ body: StudentResultBody }>(
    runner,
    sql`SELECT ${RESULT_BODY} AS body FROM results r WHERE r.attempt_id = ${attemptId}`,
  );
  return row && shown(row.body);
}

export async function resultsOf(runner: Runner, tokenHash: Buffer): Promise<StudentResultBody[] | undefined> {
  const [row] = await rows<{
    results: StudentResultBody[];
    expires_at: Date | string;
    status: StudentStatus;
  }>(
    runner,
    sql`SELECT s.status, s.expires_at, coalesce((SELECT json_agg(${RESULT_BODY} ORDER BY r.completed_at DESC)
          FROM results r WHERE r.student_id = s.id), '[]'::json) AS results
        FROM students s WHERE s.token_hash = ${tokenHash}`,
  );
  if (!row || (row.status === 'invited' && date(row.expires_at).getTime() <= Date.now())) return undefined;
  return row.results.map((r) => shown(r));
}

/** A recorded result as the student service keeps it: the ids it is found by, and the body the student sees. */
export interface ResultCopy {
  id: string;
  attemptId: string;
  studentId: string;
  passed: boolean;
  completedAt: Date;
  body: StudentResultBody;
}

/**
 * The writes that keep a recorded result's copy, each only when `when` holds (`handleOnce`'s first sight): the
 * copy (only while the student exists), its attempt marked scored unless it is still open, and the student
 * completed. An erased student's attempts went with them, so both updates then change nothing.
 */
export function resultCopyWrites(r: ResultCopy, when: SQL): SQL[] {
  return [
    sql`INSERT INTO results (id, attempt_id, student_id, passed, completed_at, body)
        SELECT ${r.id}, ${r.attemptId}::uuid, s.id, ${r.passed}, ${r.completedAt.toISOString()}::timestamptz,
               ${JSON.stringify(r.body)}::jsonb
        FROM students s WHERE s.id = ${r.studentId}::uuid AND ${when}
        ON CONFLICT DO NOTHING`,
    sql`UPDATE attempts SET status = 'scored'
        WHERE id = ${r.attemptId}::uuid AND status <> 'in_progress' AND ${when}`,
    sql`UPDATE students SET status = 'completed' WHERE id = ${r.studentId}::uuid AND ${when}`,
  ];
}

/**
 * Keeps a certificate download link with a result's copy, unless the copy holds a link that expires later (a
 * redelivered older event never replaces a resend's fresh link). 'missing' when there is no copy of the result
 * (yet), with whether its student is known.
 */
export async function saveCertificateLink(
  runner: Runner,
  c: { resultId: string; studentId: string; url: string; expiresAt: Date },
): Promise<'saved' | 'missing' | 'no_student'> {
  const [row] = await rows<{ found: boolean; student: boolean }>(
    runner,
    sql`WITH u AS (
          UPDATE results SET certificate_url = ${c.url},
            certificate_url_expires_at = ${c.expiresAt.toISOString()}::timestamptz
          WHERE id = ${c.resultId} AND (certificate_url_expires_at IS NULL
            OR certificate_url_expires_at <= ${c.expiresAt.toISOString()}::timestamptz)
          RETURNING id)
        SELECT EXISTS (SELECT 1 FROM u) OR EXISTS (SELECT 1 FROM results WHERE id = ${c.resultId}) AS found,
          EXISTS (SELECT 1 FROM students WHERE id::text = ${c.studentId}) AS student`,
  );
  if (row?.found) return 'saved';
  return row?.student ? 'missing' : 'no_student';
}

/**
 * Drops a result's copy. A student left without results is in progress while an attempt of theirs is open or
 * waiting for its score, else invited again, their link open until `openUntil` at least.
 */
export async function deleteResult(runner: Runner, resultId: string, openUntil: Date): Promise<void> {
  const [row] = await rows<{ student_id: string }>(
    runner,
    sql`DELETE FROM results WHERE id = ${resultId} RETURNING student_id`,
  );
  if (!row) return;
  await runner.execute(
    sql`WITH pending AS (
          SELECT EXISTS (SELECT 1 FROM attempts WHERE student_id = ${row.student_id}
                           AND status IN ('in_progress', 'submitted')) AS attempt)
        UPDATE students SET
          status = CASE WHEN pending.attempt THEN 'started' ELSE 'invited' END,
          expires_at = CASE WHEN pending.attempt THEN expires_at
                            ELSE GREATEST(expires_at, ${openUntil.toISOString()}::timestamptz) END
        FROM pending
        WHERE id = ${row.student_id} AND status <> 'invited'
          AND NOT EXISTS (SELECT 1 FROM results WHERE student_id = ${row.student_id})`,
  );
}

/** An answer file for the admin download: the student's attempt's file for that question. */
export async function adminFile(
  runner: Runner,
  q: { studentId: string; attemptId: string; questionId: string },
): Promise<AttemptFile | undefined> {
  const [row] = await rows<{ file: FileJson }>(
    runner,
    sql`SELECT json_build_object('id', f.id, 'questionId', f.question_id, 'objectKey', f.object_key,
          'originalName', f.original_name, 'size', f.size, 'mimetype', f.mimetype, 'uploadedAt', f.uploaded_at)
          AS file
        FROM attempt_files f JOIN attempts a ON a.id = f.attempt_id
        WHERE a.id = ${q.attemptId}::uuid AND a.student_id = ${q.studentId}::uuid AND f.question_id = ${q.questionId}`,
  );
  return row && toFile(row.file);
}

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

import { languageOf } from '@readiness/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { json, rows, type Runner } from '@readiness/kit/db';
import { enqueueWith, type OutboxEvent } from '@readiness/kit/outbox';
import type { TraceFields } from '@readiness/kit/tracing';
import type { CertificateRecord, ResultCopy, VersionCopy } from './records';

export async function saveVersion(runner: Runner, v: VersionCopy): Promise<void> {
  await runner.execute(sql`
    INSERT INTO assessment_versions (version_id, version, title, sections, questions)
    VALUES (${v.versionId}, ${v.version}, ${v.title}, ${json(v.sections)}, ${json(v.questions)})
    ON CONFLICT (version_id) DO UPDATE SET version = excluded.version, title = excluded.title,
      sections = excluded.sections, questions = excluded.questions`);
}

interface VersionRow {
  version_id: string;
  version: number;
  title: string;
  sections: VersionCopy['sections'];
  questions: VersionCopy['questions'];
}

export async function findVersion(runner: Runner, versionId: string): Promise<VersionCopy | undefined> {
  const [row] = await rows<VersionRow>(
    runner,
    sql`SELECT version_id, version, title, sections, questions FROM assessment_versions WHERE version_id = ${versionId}`,
  );
  return (
    row && {
      versionId: row.version_id,
      version: row.version,
      title: row.title,
      sections: row.sections,
      questions: row.questions,
    }
  );
}

/** Holds while the student has not been erased: a gate for every write an event about them causes. */
const notErased = (studentId: string) =>
  sql`NOT EXISTS (SELECT 1 FROM erased_students WHERE student_id = ${studentId})`;

export async function isErased(runner: Runner, studentId: string): Promise<boolean> {
  const found = await rows(runner, sql`SELECT 1 FROM erased_students WHERE student_id = ${studentId}`);
  return found.length > 0;
}

/**
 * The result copy's upsert (a redelivery or a correction replaces the copy), written only when `when` holds
 * (`handleOnce`'s first sight of the event) and the student has not been erased.
 */
export function saveResult(r: ResultCopy, when: SQL): SQL {
  return sql`
    INSERT INTO results (result_id, attempt_id, student_id, name, email, score, total_points, percentage, passed,
      attempt_number, assessment_code, completed_at, version_id, version, passing_score, assessment_title,
      localized_title, sections, answers, timeline, language)
    SELECT ${r.resultId}, ${r.attemptId}, ${r.studentId}, ${r.name}, ${r.email}, ${r.score}, ${r.totalPoints},
      ${r.percentage}, ${r.passed}, ${r.attemptNumber}, ${r.assessmentCode}, ${r.completedAt.toISOString()},
      ${r.versionId}, ${r.version}, ${r.passingScore}, ${r.assessmentTitle}, ${r.localizedTitle}, ${json(r.sections)},
      ${json(r.answers)}, ${json(r.timeline)}, ${r.language}
    WHERE ${when} AND ${notErased(r.studentId)}
    ON CONFLICT (result_id) DO UPDATE SET attempt_id = excluded.attempt_id, student_id = excluded.student_id,
      name = excluded.name, email = excluded.email, score = excluded.score, total_points = excluded.total_points,
      percentage = excluded.percentage, passed = excluded.passed, attempt_number = excluded.attempt_number,
      assessment_code = excluded.assessment_code, completed_at = excluded.completed_at,
      version_id = excluded.version_id, version = excluded.version, passing_score = excluded.passing_score,
      assessment_title = excluded.assessment_title, localized_title = excluded.localized_title,
      sections = excluded.sections, answers = excluded.answers,
      timeline = excluded.timeline, language = excluded.language`;
}

/** The copy as stored, its columns named as `ResultCopy` names them (the timestamp arrives as text). */
const RESULT = sql`SELECT result_id AS "resultId", attempt_id AS "attemptId", student_id AS "studentId", name, email,
  score, total_points AS "totalPoints", percentage, passed, attempt_number AS "attemptNumber",
  assessment_code AS "assessmentCode", completed_at AS "completedAt", version_id AS "versionId", version,
  passing_score AS "passingScore", assessment_title AS "assessmentTitle", localized_title AS "localizedTitle",
  sections, answers, timeline, language
  FROM results`;

export async function findResult(runner: Runner, resultId: string): Promise<ResultCopy | undefined> {
  const [r] = await rows<Omit<ResultCopy, 'completedAt'> & { completedAt: Date | string }>(
    runner,
    sql`${RESULT} WHERE result_id = ${resultId}`,
  );
  return (
    r && {
      ...r,
      completedAt: new Date(r.completedAt),
      language: languageOf(r.language),
      // A copy made before localized titles has none: its certificate was printed with the English title.
      localizedTitle: r.localizedTitle || r.assessmentTitle,
    }
  );
}

/**
 * A passed result's certificate, pending until rendered, written only when `when` holds and the student has not been
 * erased; a second one for the same result changes nothing.
 */
export function addCertificate(
  c: { resultId: string; studentId: string; code: string; objectKey: string; awardedAt: Date } & TraceFields,
  when: SQL,
): SQL {
  return sql`
    INSERT INTO certificates (result_id, student_id, code, object_key, awarded_at, traceparent, tracestate)
    SELECT ${c.resultId}, ${c.studentId}, ${c.code}, ${c.objectKey}, ${c.awardedAt.toISOString()},
      ${c.traceparent ?? null}::text, ${c.tracestate ?? null}::text
    WHERE ${when} AND ${notErased(c.studentId)}
    ON CONFLICT (result_id) DO NOTHING`;
}

interface CertificateRow {
  result_id: string;
  student_id: string;
  code: string;
  name: string;
  email: string;
  assessment_title: string;
  percentage: number;
  score: number;
  total_points: number;
  language: string;
  object_key: string;
  status: 'pending' | 'issued';
  awarded_at: Date | string;
  issued_at: Date | string | null;
  traceparent: string | null;
  tracestate: string | null;
}

/** A certificate names the assessment in its language: the result's localized title, else (an older copy) English. */
const CERTIFICATE_COLUMNS = sql`SELECT c.result_id, c.student_id, c.code, r.name, r.email,
  coalesce(nullif(r.localized_title, ''), r.assessment_title) AS assessment_title, r.percentage, r.score,
  r.total_points, r.language,
  c.object_key, c.status, c.awarded_at, c.issued_at, c.traceparent, c.tracestate`;
const CERTIFICATE = sql`${CERTIFICATE_COLUMNS} FROM certificates c JOIN results r USING (result_id)`;

const toCertificate = (r: CertificateRow): CertificateRecord => ({
  resultId: r.result_id,
  studentId: r.student_id,
  code: r.code,
  name: r.name,
  email: r.email,
  assessmentTitle: r.assessment_title,
  percentage: r.percentage,
  score: r.score,
  totalPoints: r.total_points,
  language: languageOf(r.language),
  objectKey: r.object_key,
  status: r.status,
  awardedAt: new Date(r.awarded_at),
  issuedAt: r.issued_at === null ? null : new Date(r.issued_at),
  trace: { traceparent: r.traceparent ?? undefined, tracestate: r.tracestate ?? undefined },
});

export async function findCertificate(
  runner: Runner,
  resultId: string,
): Promise<CertificateRecord | undefined> {
  const [row] = await rows<CertificateRow>(runner, sql`${CERTIFICATE} WHERE c.result_id = ${resultId}`);
  return row && toCertificate(row);
}

export async function findCertificateByCode(
  runner: Runner,
  code: string,
): Promise<CertificateRecord | undefined> {
  const [row] = await rows<CertificateRow>(runner, sql`${CERTIFICATE} WHERE c.code = ${code}`);
  return row && toCertificate(row);
}

/**
 * Takes up to `limit` pending certificates whose lease is free (never taken, or its worker died or failed), each
 * with a lease of `leaseSeconds`; concurrent workers take different ones.
 */
export async function claimPending(
  runner: Runner,
  options: { leaseSeconds: number; limit: number },
): Promise<CertificateRecord[]> {
  // One statement: the UPDATE's RETURNING gives the claimed rows as they now are, joined to their results.
  const claimed = await rows<CertificateRow>(
    runner,
    sql`WITH claimed AS (
          UPDATE certificates SET claimed_until = now() + make_interval(secs => ${options.leaseSeconds}),
            attempts = attempts + 1
          WHERE result_id IN (
            SELECT result_id FROM certificates
            WHERE status = 'pending' AND (claimed_until IS NULL OR claimed_until < now())
            ORDER BY awarded_at LIMIT ${options.limit} FOR UPDATE SKIP LOCKED)
          RETURNING result_id, student_id, code, object_key, status, awarded_at, issued_at, traceparent, tracestate)
        ${CERTIFICATE_COLUMNS} FROM claimed c JOIN results r USING (result_id) ORDER BY c.awarded_at`,
  );
  return claimed.map(toCertificate);
}

/** Certificates still to issue, and how long the oldest has waited since its result (the backlog's alert). */
export async function pendingBacklog(runner: Runner): Promise<{ count: number; oldestSeconds: number }> {
  const [row] = await rows<{ count: number; oldest: number | string }>(
    runner,
    sql`SELECT count(*)::int AS count,
          coalesce(extract(epoch FROM now() - min(awarded_at)), 0)::float8 AS oldest
        FROM certificates WHERE status = 'pending'`,
  );
  return { count: row?.count ?? 0, oldestSeconds: Math.max(0, Number(row?.oldest ?? 0)) };
}

/**
 * Turns a pending certificate issued at `issuedAt` and writes its event, in one statement; false (and no event)
 * when it is not pending any more (issued or erased meanwhile).
 */
export async function markIssued(
  runner: Runner,
  resultId: string,
  issuedAt: Date,
  event: OutboxEvent,
): Promise<boolean> {
  const written = await enqueueWith(
    runner,
    sql`UPDATE certificates SET status = 'issued', issued_at = ${issuedAt.toISOString()}, claimed_until = NULL,
          last_error = NULL
        WHERE result_id = ${resultId} AND status = 'pending' RETURNING result_id`,
    event,
  );
  return written !== undefined;
}

/** Records why a render failed and leaves the certificate pending, free again after `retryAfterSeconds`. */
export async function recordFailure(
  runner: Runner,
  resultId: string,
  error: string,
  retryAfterSeconds: number,
): Promise<void> {
  await runner.execute(sql`
    UPDATE certificates SET last_error = ${error.slice(0, 1000)},
      claimed_until = now() + make_interval(secs => ${retryAfterSeconds})
    WHERE result_id = ${resultId} AND status = 'pending'`);
}

/**
 * Deletes the certificates `where` names, in one statement that keeps the codes of the issued ones as revoked (their
 * credentials then check as revoked); answers their object keys.
 */
const revokingDelete = (where: SQL) => sql`
  WITH gone AS (DELETE FROM certificates WHERE ${where} RETURNING object_key, code, status),
    revoked AS (INSERT INTO revoked_certificates (code) SELECT code FROM gone WHERE status = 'issued'
      ON CONFLICT (code) DO NOTHING)
  SELECT object_key FROM gone`;

/** Whether an issued certificate with this code was erased. */
export async function isRevoked(runner: Runner, code: string): Promise<boolean> {
  const [row] = await rows<{ code: string }>(
    runner,
    sql`SELECT code FROM revoked_certificates WHERE code = ${code}`,
  );
  return row !== undefined;
}

/** Erases a result and its certificate; returns the certificate's object key when it had one. */
export async function deleteResult(runner: Runner, resultId: string): Promise<string[]> {
  const keys = await rows<{ object_key: string }>(runner, revokingDelete(sql`result_id = ${resultId}`));
  await runner.execute(sql`DELETE FROM results WHERE result_id = ${resultId}`);
  return keys.map((k) => k.object_key);
}

/**
 * Erases every result and certificate of a student; a tombstone of the id keeps events about them still on their way
 * (a result held at the peak, a redelivery) from writing them back.
 */
export async function deleteStudent(runner: Runner, studentId: string): Promise<void> {
  await runner.execute(
    sql`INSERT INTO erased_students (student_id) VALUES (${studentId}) ON CONFLICT DO NOTHING`,
  );
  await runner.execute(revokingDelete(sql`student_id = ${studentId}`));
  await runner.execute(sql`DELETE FROM results WHERE student_id = ${studentId}`);
}

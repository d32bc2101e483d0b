import { sql } from 'drizzle-orm';
import { shownPercentage } from '@readiness/contracts';
import { rows, type Runner } from '@readiness/kit/db';
import type { WritesOnly } from '@readiness/kit/outbox';
import { date } from './attempt-records';
import type { StudentStatus } from './students-repository';

/* The student's copies of their results, as the results service records them, and their certificate links. */

/** The student's copy of a result, shaped as the student sees it (api.md StudentResult). */
export type StudentResultBody = Record<string, unknown> & { _id: string; attemptId: string; passed: boolean };

interface Figures {
  score: number;
  totalPoints: number;
  percentage: number;
}

/**
 * A copy with its percentages as every surface shows them, from its points (docs/scoring.md): the event carries
 * the whole percent, rounded, which shows a 69.5 % fail as 70 %, and copies kept by earlier releases hold it.
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

/** A result copy as the student sees it: its body with the certificate link while the link is unexpired. */
export const RESULT_BODY = sql`(r.body || jsonb_build_object('certificateUrl',
  CASE WHEN r.certificate_url_expires_at > clock_timestamp() THEN r.certificate_url END))`;

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
 * Keeps a recorded result's copy in one statement with the consumer's processed-messages row (`handleOnce`), each
 * write only on the event's first sight: the copy (only while the student exists), its attempt marked scored
 * unless it is still open, and the student completed. An erased student's attempts went with them, so both
 * updates then change nothing.
 */
export const keepResultCopy = (r: ResultCopy): WritesOnly => ({
  writes: (firstSight) => [
    sql`INSERT INTO results (id, attempt_id, student_id, passed, completed_at, body)
        SELECT ${r.id}, ${r.attemptId}::uuid, s.id, ${r.passed}, ${r.completedAt.toISOString()}::timestamptz,
               ${JSON.stringify(r.body)}::jsonb
        FROM students s WHERE s.id = ${r.studentId}::uuid AND ${firstSight}
        ON CONFLICT DO NOTHING`,
    sql`UPDATE attempts SET status = 'scored'
        WHERE id = ${r.attemptId}::uuid AND status <> 'in_progress' AND ${firstSight}`,
    sql`UPDATE students SET status = 'completed' WHERE id = ${r.studentId}::uuid AND ${firstSight}`,
  ],
});

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

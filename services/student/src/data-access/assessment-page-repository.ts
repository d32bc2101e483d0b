import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';
import * as records from './attempt-records';
import type { AttemptWithFiles, AttemptWithFilesJson, StudentRow, TokenStudent } from './attempt-records';
import { RESULT_BODY, shown, type StudentResultBody } from './result-copies-repository';
import type { AssessmentVersion } from './version-records';

/** What loading the assessment needs, fetched in one statement (the enrolment-peak hot path). */
export interface AssessmentPage {
  student: TokenStudent;
  /** The attempt in progress's version, else the active one; null when no version was ever published as active. */
  versionId: string | null;
  /** That version's content, unless it is one of `cachedVersionIds` (the caller holds it). */
  content: AssessmentVersion | null;
  attempt: AttemptWithFiles | null;
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
      attempt: AttemptWithFilesJson | null;
      latest: StudentResultBody | null;
      passed: StudentResultBody | null;
      awaiting: boolean;
      server_now: Date | string;
    }
  >(
    runner,
    sql`SELECT ${records.STUDENT_COLUMNS}, v.version_id,
          CASE WHEN NOT jsonb_exists(${JSON.stringify(cachedVersionIds)}::jsonb, v.version_id)
               THEN v.content END AS content,
          (SELECT ${records.ATTEMPT_JSON}::jsonb || jsonb_build_object('files', ${records.FILES_JSON})
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
    student: records.toTokenStudent(row),
    versionId: row.version_id,
    content: row.content,
    attempt: row.attempt ? records.toAttemptWithFiles(row.attempt) : null,
    latest: shown(row.latest),
    passed: shown(row.passed),
    awaitingResult: row.awaiting,
    serverNow: records.date(row.server_now),
  };
}

import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';

/** The report service's rows about a student, for their data export: its copy of the results, the certificates. */
export async function studentRows(runner: Runner, studentId: string) {
  const results = await rows(
    runner,
    sql`SELECT result_id, attempt_id, attempt_number, name, email, version, assessment_title, localized_title,
               language, assessment_code, score, total_points, percentage, passing_score, passed, completed_at,
               sections, answers, timeline
        FROM results WHERE student_id = ${studentId} ORDER BY attempt_number`,
  );
  const certificates = await rows<{ code: string; status: string; object_key: string }>(
    runner,
    sql`SELECT result_id, code, status, awarded_at, issued_at, object_key
        FROM certificates WHERE student_id = ${studentId} ORDER BY awarded_at`,
  );
  return { results, certificates };
}

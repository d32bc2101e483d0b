import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';
import type { StudentExportFile } from '@readiness/kit/runtime';
import type { ReportsDeps } from './context';
import { certificateCredential } from './credentials';

/**
 * The report service's part of a student's subject-access export: its copy of their results, their certificates
 * with each issued one's PDF (copied from the bucket) and its Open Badges credential, signed as it is served.
 */
export async function studentExportFiles(
  deps: ReportsDeps,
  runner: Runner,
  studentId: string,
): Promise<StudentExportFile[]> {
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
  const issued = certificates.filter((c) => c.status === 'issued');
  const credentials = await Promise.all(issued.map((c) => certificateCredential(deps, c.code)));
  return [
    {
      path: 'results.json',
      description:
        "The report service's copy of each result, from which the reports and certificates are made.",
      data: results,
    },
    {
      path: 'certificates.json',
      description: 'Each certificate: its verification code, when it was awarded and issued.',
      data: certificates.map(({ object_key: _key, ...c }) => c),
    },
    ...issued.map((c) => ({
      path: `certificates/${c.code}.pdf`,
      description: `The certificate ${c.code} as it was mailed (PDF).`,
      objectKey: c.object_key,
    })),
    {
      path: 'open-badges.json',
      description:
        'Each certificate as an Open Badges 3.0 credential (a signed VC-JWT), as the completion and verification pages hand it out.',
      data: credentials.map(({ code, token }) => ({ code, credential: token })),
    },
  ];
}

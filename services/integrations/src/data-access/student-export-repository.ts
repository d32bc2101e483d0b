import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';
import type { StudentExportFile } from '@readiness/kit/runtime';

/**
 * The integrations service's part of a student's subject-access export: their launches from an LMS, the grades sent
 * back to its gradebook, and every webhook delivery about them with the body that was sent (never a secret).
 */
export async function studentExportFiles(runner: Runner, studentId: string): Promise<StudentExportFile[]> {
  const launches = await rows(
    runner,
    sql`SELECT l.id, p.name AS lms, l.issuer, l.subject AS lms_user_id, l.deployment_id, l.resource_link_id, l.roles,
               l.name, l.created_at AS launched_at
        FROM lti_launches l LEFT JOIN lti_platforms p ON p.id = l.platform_id
        WHERE l.student_id = ${studentId}::uuid ORDER BY l.created_at`,
  );
  const grades = await rows(
    runner,
    sql`SELECT result_id, launch_id, score_given, passed, attempt_number, completed_at, line_item, state, tries,
               last_status, last_answer, sent_at, created_at
        FROM lti_scores WHERE student_id = ${studentId}::uuid ORDER BY created_at`,
  );
  const webhooks = await rows(
    runner,
    sql`SELECT d.id AS webhook_id, e.url AS endpoint, d.event_type, d.body, d.state, d.tries, d.last_status,
               d.created_at, d.sent_at
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.student_id = ${studentId}::uuid ORDER BY d.seq`,
  );
  return [
    {
      path: 'lms-launches.json',
      description:
        'Each time the student came from a learning management system (LTI 1.3): which LMS, its user id, when.',
      data: launches,
    },
    {
      path: 'lms-grades.json',
      description: "The scores sent back to the LMS's gradebook, and whether the LMS took them.",
      data: grades,
    },
    {
      path: 'webhook-deliveries.json',
      description:
        "The events about the student sent to the institution's other systems (webhooks): where, what was sent, whether it arrived.",
      data: webhooks,
    },
  ];
}

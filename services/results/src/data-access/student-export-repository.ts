import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';
import type { StudentExportFile } from '@readiness/kit/runtime';

/** The results service's part of a student's subject-access export: its copy of the student, the results, actions. */
export async function studentExportFiles(runner: Runner, studentId: string): Promise<StudentExportFile[]> {
  const [student] = await rows(
    runner,
    sql`SELECT student_id, name, email, invited_at, started, started_attempt, scored_attempt
        FROM students WHERE student_id = ${studentId}`,
  );
  const results = await rows(
    runner,
    sql`SELECT id, attempt_id, attempt_number, student_name, student_email, version, assessment_title,
               localized_title, language, assessment_code, score, total_points, percentage, passing_score, passed,
               started_at, completed_at, time_spent_minutes, sections, answers, timeline, recorded_at
        FROM results WHERE student_id = ${studentId} ORDER BY attempt_number, recorded_at`,
  );
  const actions = await rows(
    runner,
    sql`SELECT at, actor_id, action, result_id FROM results_audit WHERE student_id = ${studentId} ORDER BY at, id`,
  );
  return [
    {
      path: 'student.json',
      description:
        'The student as the results service knows them (for the dashboard figures): name, e-mail, attempts.',
      data: student ?? null,
    },
    {
      path: 'results.json',
      description:
        'Every scored attempt: score, percentage, pass mark, sections, each answer with its points, and the attempt timeline.',
      data: results,
    },
    {
      path: 'actions.json',
      description:
        "Administrators' actions on these results (deletions, certificate resends), with who and when.",
      data: actions,
    },
  ];
}

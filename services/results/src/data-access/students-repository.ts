import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';

export async function isErased(runner: Runner, studentId: string): Promise<boolean> {
  const found = await rows(runner, sql`SELECT 1 FROM erased_students WHERE student_id = ${studentId}`);
  return found.length > 0;
}

/** An invitation (or its resend): the student is known by name and e-mail from now on. */
export async function studentInvited(
  runner: Runner,
  s: { studentId: string; name: string; email: string },
): Promise<void> {
  await runner.execute(
    sql`INSERT INTO students (student_id, name, email, invited_at)
        SELECT ${s.studentId}, ${s.name}, ${s.email}, now()
        WHERE NOT EXISTS (SELECT 1 FROM erased_students WHERE student_id = ${s.studentId})
        ON CONFLICT (student_id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email,
          invited_at = coalesce(students.invited_at, EXCLUDED.invited_at)
        WHERE students.name IS DISTINCT FROM EXCLUDED.name OR students.email IS DISTINCT FROM EXCLUDED.email
          OR students.invited_at IS NULL`,
  );
}

/** Attempt `attemptNumber` started: in progress until that attempt (or a later one) is scored. */
export async function attemptStarted(
  runner: Runner,
  s: { studentId: string; attemptNumber: number },
): Promise<void> {
  await runner.execute(
    sql`INSERT INTO students (student_id, started, started_attempt)
        SELECT ${s.studentId}, true, ${s.attemptNumber}
        WHERE NOT EXISTS (SELECT 1 FROM erased_students WHERE student_id = ${s.studentId})
        ON CONFLICT (student_id) DO UPDATE SET started = true,
          started_attempt = GREATEST(students.started_attempt, EXCLUDED.started_attempt)
        WHERE NOT students.started OR students.started_attempt < EXCLUDED.started_attempt`,
  );
}

/** Attempt `attemptNumber` was scored: no longer in progress, and no longer a pending invitation. */
export async function attemptScored(
  runner: Runner,
  s: { studentId: string; name: string; email: string; attemptNumber: number },
): Promise<void> {
  await runner.execute(
    sql`INSERT INTO students (student_id, name, email, started, started_attempt, scored_attempt)
        VALUES (${s.studentId}, ${s.name}, ${s.email}, true, ${s.attemptNumber}, ${s.attemptNumber})
        ON CONFLICT (student_id) DO UPDATE SET started = true,
          name = coalesce(students.name, EXCLUDED.name), email = coalesce(students.email, EXCLUDED.email),
          started_attempt = GREATEST(students.started_attempt, EXCLUDED.started_attempt),
          scored_attempt = GREATEST(students.scored_attempt, EXCLUDED.scored_attempt)`,
  );
}

/** Erases the student and every result of theirs; a tombstone of the id keeps late events from recreating them. */
export async function eraseStudent(runner: Runner, studentId: string): Promise<number> {
  await runner.execute(sql`DELETE FROM students WHERE student_id = ${studentId}`);
  await runner.execute(
    sql`INSERT INTO erased_students (student_id) VALUES (${studentId}) ON CONFLICT DO NOTHING`,
  );
  const gone = await rows(runner, sql`DELETE FROM results WHERE student_id = ${studentId} RETURNING id`);
  return gone.length;
}

export interface Figures {
  students: number;
  pendingInvites: number;
  inProgress: number;
  results: number;
  passed: number;
  percentageSum: number;
}

/** The counters the triggers keep: one query over 16 rows, never a count over the tables. */
export async function figures(runner: Runner): Promise<Figures> {
  const [row] = await rows<Record<string, string | number | null>>(
    runner,
    sql`SELECT sum(students) AS students, sum(pending_invites) AS pending_invites, sum(in_progress) AS in_progress,
          sum(results) AS results, sum(passed) AS passed, sum(percentage_sum) AS percentage_sum FROM figures`,
  );
  const n = (key: string) => Number(row?.[key] ?? 0);
  return {
    students: n('students'),
    pendingInvites: n('pending_invites'),
    inProgress: n('in_progress'),
    results: n('results'),
    passed: n('passed'),
    percentageSum: n('percentage_sum'),
  };
}

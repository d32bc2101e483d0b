import { randomUUID } from 'node:crypto';
import { json, rows, type Runner } from '@readiness/kit/db';
import { sql } from 'drizzle-orm';
import type { StudentExportFile } from '@readiness/kit/runtime';
import type { AuditInput } from './admins-repository';

export interface KnownStudent {
  id: string;
  name: string;
  email: string;
}

/** The other services' admin actions, as their events bring them, each written once. */
export const auditTrailRepository = {
  /** False when this event was already written (a redelivery). */
  async addFromEvent(runner: Runner, eventId: string, entry: AuditInput): Promise<boolean> {
    const written = await rows<{ id: string }>(
      runner,
      sql`INSERT INTO audit_log (id, event_id, actor_id, actor_name, actor_email, action, target_id, target_name,
            target_email, details)
          VALUES (${randomUUID()}, ${eventId}, ${entry.actor?.id ?? null}, ${entry.actor?.name ?? null},
            ${entry.actor?.email ?? null}, ${entry.action}, ${entry.target?.id ?? null},
            ${entry.target?.name ?? null}, ${entry.target?.email ?? null}, ${json(entry.details ?? {})})
          ON CONFLICT (event_id) DO NOTHING
          RETURNING id`,
    );
    return written.length > 0;
  },

  async rememberStudent(runner: Runner, student: KnownStudent): Promise<void> {
    await runner.execute(
      sql`INSERT INTO audit_students (student_id, name, email) VALUES (${student.id}, ${student.name}, ${student.email})
          ON CONFLICT (student_id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email`,
    );
  },

  async student(runner: Runner, id: string): Promise<KnownStudent | undefined> {
    const [row] = await rows<{ student_id: string; name: string; email: string }>(
      runner,
      sql`SELECT student_id, name, email FROM audit_students WHERE student_id = ${id}`,
    );
    return row && { id: row.student_id, name: row.name, email: row.email };
  },

  async forgetStudent(runner: Runner, id: string): Promise<void> {
    await runner.execute(sql`DELETE FROM audit_students WHERE student_id = ${id}`);
  },
};

/**
 * The auth service's part of a student's subject-access export: the audit log's entries about them (who did what,
 * when: invited, reminded, exported, results deleted…) and the name and address the log knows them by.
 */
export async function studentExportFiles(runner: Runner, studentId: string): Promise<StudentExportFile[]> {
  const entries = await rows(
    runner,
    sql`SELECT created_at AS at, action, actor_name, target_name, target_email, details
        FROM audit_log WHERE target_id = ${studentId} ORDER BY created_at, id`,
  );
  return [
    {
      path: 'audit-log.json',
      description:
        "The audit log's entries about the student: each administrator's action (invited, reminded, data exported, a result deleted…), by whom and when.",
      data: entries,
    },
  ];
}

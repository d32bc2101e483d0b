import { sql } from 'drizzle-orm';
import { rows, type Database, type Runner } from '@readiness/kit/db';
import type { ExportedStudent, StudentExportFile } from '@readiness/kit/runtime';

export interface Delivery {
  id: string;
  eventId: string;
  template: string;
  recipient: string;
  subject: string;
  studentId: string | null;
  createdAt: Date;
}

/** A student's latest invitation mail: queued (not sent yet, maybe retrying), sent, or failed with its reason. */
export interface StudentDelivery {
  studentId: string;
  /** The invitation (first or resent) or a reminder (`student-invitation-reminder`). */
  kind: 'invitation' | 'reminder';
  status: 'queued' | 'sent' | 'failed';
  reason: string | null;
  at: Date;
}

/**
 * The delivery log: one row per mail this service was asked to send (who, what subject; never a secret). Whether
 * it went out is the kit's claim (`effect_claims`, scope `mail:<template>`, key the event id).
 */
export interface DeliveriesRepository {
  /**
   * Records the delivery of this event and template on first sight; later calls change nothing. False, and nothing
   * recorded, when the mail is about a student who has been erased.
   */
  record(input: {
    eventId: string;
    template: string;
    recipient: string;
    subject: string;
    studentId?: string;
  }): Promise<boolean>;
  recent(limit: number): Promise<Delivery[]>;
  /** The latest invitation delivery of each of these students (none for a student never mailed). */
  latestForStudents(studentIds: string[]): Promise<StudentDelivery[]>;
  /**
   * Erases the mail log of a student (and the claims that recorded its outcome), and keeps a tombstone of the id so
   * that a mail about them still on its way is neither logged nor sent.
   */
  eraseStudent(studentId: string): Promise<void>;
}

/**
 * The notification service's part of a student's subject-access export: every mail sent to them (invitations,
 * reminders, certificates), with its subject, when, and whether it went out. Mails logged before deliveries named
 * their student are matched by the address, admins' own mails excepted.
 */
export async function studentExportFiles(
  runner: Runner,
  student: ExportedStudent,
): Promise<StudentExportFile[]> {
  const mails = await rows(
    runner,
    sql`SELECT d.template, d.recipient, d.subject, d.created_at AS queued_at,
               CASE c.status WHEN 'done' THEN 'sent' WHEN 'failed' THEN 'failed' ELSE 'queued' END AS status,
               c.done_at AS sent_at, c.last_error
        FROM deliveries d
        LEFT JOIN effect_claims c ON c.scope = 'mail:' || d.template AND c.key = d.event_id::text
        WHERE d.student_id = ${student.studentId}::uuid
           OR (d.student_id IS NULL AND lower(d.recipient) = lower(${student.email}) AND d.template NOT LIKE 'admin-%')
        ORDER BY d.created_at`,
  );
  return [
    {
      path: 'mails.json',
      description:
        'Every mail sent to the student (invitation, resends, reminders, certificate): template, address, subject, when, and whether it went out.',
      data: mails,
    },
  ];
}

interface DeliveryRow {
  id: string;
  event_id: string;
  template: string;
  recipient: string;
  subject: string;
  student_id: string | null;
  created_at: Date | string;
}

export function createDeliveriesRepository(database: Database): DeliveriesRepository {
  const { db } = database;
  return {
    async record(input) {
      // One statement: the tombstone is read in the snapshot the row is written in.
      const [row] = await rows<{ erased: boolean }>(
        db,
        sql`WITH erased AS (SELECT 1 FROM erased_students WHERE student_id = ${input.studentId ?? null}::text),
              logged AS (INSERT INTO deliveries (event_id, template, recipient, subject, student_id)
                SELECT ${input.eventId}, ${input.template}, ${input.recipient}, ${input.subject},
                  ${input.studentId ?? null}::uuid
                WHERE NOT EXISTS (SELECT 1 FROM erased)
                ON CONFLICT (event_id, template) DO NOTHING)
            SELECT EXISTS (SELECT 1 FROM erased) AS erased`,
      );
      return !row?.erased;
    },
    async recent(limit) {
      const recent = await rows<DeliveryRow>(
        db,
        sql`SELECT id, event_id, template, recipient, subject, student_id, created_at FROM deliveries
            ORDER BY created_at DESC LIMIT ${limit}`,
      );
      return recent.map((r) => ({
        id: r.id,
        eventId: r.event_id,
        template: r.template,
        recipient: r.recipient,
        subject: r.subject,
        studentId: r.student_id,
        createdAt: new Date(r.created_at),
      }));
    },
    async latestForStudents(studentIds) {
      if (studentIds.length === 0) return [];
      const ids = sql.join(
        studentIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      );
      const latest = await rows<{
        student_id: string;
        template: string;
        status: string;
        last_error: string | null;
        at: Date | string;
      }>(
        db,
        sql`SELECT DISTINCT ON (d.student_id) d.student_id, d.template, c.status, c.last_error,
              coalesce(c.done_at, c.updated_at, d.created_at) AS at
            FROM deliveries d
            LEFT JOIN effect_claims c ON c.scope = 'mail:' || d.template AND c.key = d.event_id::text
            WHERE d.student_id IN (${ids}) AND d.template LIKE 'student-invitation%'
            ORDER BY d.student_id, d.created_at DESC`,
      );
      return latest.map((r) => ({
        studentId: r.student_id,
        kind: r.template === 'student-invitation-reminder' ? ('reminder' as const) : ('invitation' as const),
        status: r.status === 'done' ? 'sent' : r.status === 'failed' ? 'failed' : 'queued',
        reason: r.last_error,
        at: new Date(r.at),
      }));
    },
    async eraseStudent(studentId) {
      await database.transaction(async (tx) => {
        await tx.execute(
          sql`DELETE FROM effect_claims c USING deliveries d
              WHERE d.student_id = ${studentId} AND c.scope = 'mail:' || d.template AND c.key = d.event_id::text`,
        );
        await tx.execute(sql`DELETE FROM deliveries WHERE student_id = ${studentId}`);
        await tx.execute(
          sql`INSERT INTO erased_students (student_id) VALUES (${studentId}) ON CONFLICT DO NOTHING`,
        );
      });
    },
  };
}

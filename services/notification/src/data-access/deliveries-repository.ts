import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '@readiness/kit/db';
import { deliveries } from './schema';

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
  status: 'queued' | 'sent' | 'failed';
  reason: string | null;
  at: Date;
}

/**
 * The delivery log: one row per mail this service was asked to send (who, what subject; never a secret). Whether
 * it went out is the kit's claim (`effect_claims`, scope `mail:<template>`, key the event id).
 */
export interface DeliveriesRepository {
  /** Records the delivery of this event and template on first sight; later calls change nothing. */
  record(input: {
    eventId: string;
    template: string;
    recipient: string;
    subject: string;
    studentId?: string;
  }): Promise<void>;
  recent(limit: number): Promise<Delivery[]>;
  /** The latest invitation delivery of each of these students (none for a student never mailed). */
  latestForStudents(studentIds: string[]): Promise<StudentDelivery[]>;
  /** Erases the mail log of a student (and the claims that recorded its outcome). */
  eraseStudent(studentId: string): Promise<void>;
}

export function createDeliveriesRepository(database: Database): DeliveriesRepository {
  const { db } = database;
  return {
    async record(input) {
      await db
        .insert(deliveries)
        .values(input)
        .onConflictDoNothing({ target: [deliveries.eventId, deliveries.template] });
    },
    recent(limit) {
      return db.select().from(deliveries).orderBy(desc(deliveries.createdAt)).limit(limit);
    },
    async latestForStudents(studentIds) {
      if (studentIds.length === 0) return [];
      const ids = sql.join(
        studentIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      );
      const rows = await database.execute<{
        student_id: string;
        status: string;
        last_error: string | null;
        at: Date | string;
      }>(
        sql`SELECT DISTINCT ON (d.student_id) d.student_id, c.status, c.last_error,
              coalesce(c.done_at, c.updated_at, d.created_at) AS at
            FROM deliveries d
            LEFT JOIN effect_claims c ON c.scope = 'mail:' || d.template AND c.key = d.event_id::text
            WHERE d.student_id IN (${ids}) AND d.template LIKE 'student-invitation%'
            ORDER BY d.student_id, d.created_at DESC`,
      );
      return rows.map((r) => ({
        studentId: r.student_id,
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
        await tx.delete(deliveries).where(eq(deliveries.studentId, studentId));
      });
    },
  };
}

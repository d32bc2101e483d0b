import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { Database } from '@readiness/kit/db';
import { deliveries } from './schema';

export type DeliveryStatus = 'queued' | 'sending' | 'sent' | 'failed';

export interface Delivery {
  id: string;
  eventId: string;
  template: string;
  recipient: string;
  subject: string;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

export interface DeliveriesRepository {
  /** The delivery of this event and template, created as 'queued' on first sight. */
  open(input: { eventId: string; template: string; recipient: string; subject: string }): Promise<Delivery>;
  /**
   * Takes the delivery for sending: true when it was queued, or claimed by a delivery that has not finished
   * within `leaseSeconds` (its process died). Only one concurrent delivery of an event gets true.
   */
  claim(id: string, leaseSeconds: number): Promise<boolean>;
  markSent(id: string): Promise<void>;
  markAttemptFailed(id: string, error: string, final: boolean): Promise<void>;
  recent(limit: number): Promise<Delivery[]>;
}

export function createDeliveriesRepository(database: Database): DeliveriesRepository {
  const { db } = database;
  return {
    async open(input) {
      await db
        .insert(deliveries)
        .values(input)
        .onConflictDoNothing({ target: [deliveries.eventId, deliveries.template] });
      const [row] = await db
        .select()
        .from(deliveries)
        .where(and(eq(deliveries.eventId, input.eventId), eq(deliveries.template, input.template)));
      if (!row) throw new Error('delivery row vanished after insert');
      return row;
    },
    async claim(id, leaseSeconds) {
      const claimed = await db
        .update(deliveries)
        .set({ status: 'sending', claimedAt: sql`now()`, updatedAt: sql`now()` })
        .where(
          and(
            eq(deliveries.id, id),
            or(
              eq(deliveries.status, 'queued'),
              and(
                eq(deliveries.status, 'sending'),
                lt(deliveries.claimedAt, sql`now() - make_interval(secs => ${leaseSeconds})`),
              ),
            ),
          ),
        )
        .returning({ id: deliveries.id });
      return claimed.length === 1;
    },
    async markSent(id) {
      await db
        .update(deliveries)
        .set({
          status: 'sent',
          claimedAt: null,
          attempts: sql`${deliveries.attempts} + 1`,
          lastError: null,
          sentAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(deliveries.id, id));
    },
    async markAttemptFailed(id, error, final) {
      await db
        .update(deliveries)
        .set({
          status: final ? 'failed' : 'queued',
          claimedAt: null,
          attempts: sql`${deliveries.attempts} + 1`,
          lastError: error.slice(0, 1000),
          updatedAt: sql`now()`,
        })
        .where(eq(deliveries.id, id));
    },
    recent(limit) {
      return db.select().from(deliveries).orderBy(desc(deliveries.createdAt)).limit(limit);
    },
  };
}

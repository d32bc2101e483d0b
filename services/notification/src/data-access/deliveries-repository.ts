import { desc } from 'drizzle-orm';
import type { Database } from '@readiness/kit/db';
import { deliveries } from './schema';

export interface Delivery {
  id: string;
  eventId: string;
  template: string;
  recipient: string;
  subject: string;
  createdAt: Date;
}

/**
 * The delivery log: one row per mail this service was asked to send (who, what subject; never a secret). Whether
 * it went out is the kit's claim (`effect_claims`, scope `mail:<template>`, key the event id).
 */
export interface DeliveriesRepository {
  /** Records the delivery of this event and template on first sight; later calls change nothing. */
  record(input: { eventId: string; template: string; recipient: string; subject: string }): Promise<void>;
  recent(limit: number): Promise<Delivery[]>;
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
  };
}

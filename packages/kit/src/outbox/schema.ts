import { customType, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  // node-postgres hands back a Buffer; callers get a plain Uint8Array view of it.
  fromDriver: (value) => new Uint8Array(value.buffer, value.byteOffset, value.byteLength),
});

/** Mirrors `migrations/kit-0001-outbox-inbox.sql`; the SQL file is what creates the table. */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    payload: bytea('payload').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    correlationId: text('correlation_id'),
    traceparent: text('traceparent'),
    tracestate: text('tracestate'),
    source: text('source'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('outbox_pending_idx').on(t.createdAt)],
);

export const processedMessages = pgTable(
  'processed_messages',
  {
    consumer: text('consumer').notNull(),
    eventId: uuid('event_id').notNull(),
    naturalKey: text('natural_key'),
    processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.consumer, t.eventId] })],
);

/** Mirrors `migrations/kit-0002-natural-keys-and-claims.sql`. */
export const effectClaims = pgTable(
  'effect_claims',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    status: text('status', { enum: ['pending', 'running', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);

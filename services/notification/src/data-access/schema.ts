import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Mirrors the migrations: the delivery log. Status, attempts and errors live in the kit's `effect_claims`. */
export const deliveries = pgTable('deliveries', {
  id: uuid('id').primaryKey().defaultRandom(),
  eventId: uuid('event_id').notNull(),
  template: text('template').notNull(),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  /** The student the mail was about (invitations); erased with the student. */
  studentId: uuid('student_id'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

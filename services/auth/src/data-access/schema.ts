import { bigint, boolean, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const admins = pgTable('admins', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  passwordHash: text('password_hash').notNull(),
  role: text('role').$type<'admin' | 'super_admin'>().notNull(),
  status: text('status').$type<'active' | 'disabled'>().notNull(),
  mustChangePassword: boolean('must_change_password').notNull(),
  tokensValidFrom: bigint('tokens_valid_from', { mode: 'number' }).notNull(),
  lastLogin: timestamp('last_login', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
});

export const auditLog = pgTable('audit_log', {
  id: uuid('id').primaryKey(),
  actorId: uuid('actor_id'),
  actorName: text('actor_name'),
  actorEmail: text('actor_email'),
  action: text('action').notNull(),
  targetId: uuid('target_id'),
  targetName: text('target_name'),
  targetEmail: text('target_email'),
  details: jsonb('details').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const revokedTokens = pgTable('revoked_tokens', {
  kind: text('kind').$type<'session' | 'token'>().notNull(),
  id: text('id').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});

import { languageSchema } from '@readiness/contracts';
import { emailField, personNameField, textField } from '@readiness/kit/http';
import { z } from 'zod';
import type { StudentView } from '../../../domain/students';
import { jsonBody } from '../json-body';

/* A student's fields as an administrator writes them (an invitation, an edit, a CSV row) and reads them. */

export const phoneField = textField({ label: 'Phone number' })
  .trim()
  .max(40, 'Phone number must be at most 40 characters')
  .optional()
  .nullable()
  .transform((v) => (v ? v : null));

export const extraTimeField = z.coerce
  .number({ error: 'Extra time must be a whole percentage from 0 to 300' })
  .int('Extra time must be a whole percentage from 0 to 300')
  .min(0, 'Extra time must be a whole percentage from 0 to 300')
  .max(300, 'Extra time must be a whole percentage from 0 to 300');

/** The student's language, chosen by the administrator; absent, null or empty: not chosen (the browser's). */
export const languageField = z
  .preprocess(
    (v) => (v === '' ? null : typeof v === 'string' ? v.trim().toLowerCase() : v),
    languageSchema.nullable(),
  )
  .optional()
  .transform((v) => v ?? null);

export const inviteBody = jsonBody({
  name: personNameField,
  email: emailField,
  phoneNumber: phoneField,
  extraTimePercent: extraTimeField.optional().default(0),
  language: languageField,
});

export const patchBody = jsonBody({ extraTimePercent: extraTimeField });

/** Any id: one that is not a student's answers 404 like an unknown one. */
export const idParams = z.object({ id: z.string() });

const filterFields = {
  search: z.string().trim().max(200).optional(),
  status: z.enum(['all', 'invited', 'started', 'completed']).optional().default('all'),
};

/** The list's filter as the use cases take it: no search and `all` are no condition. */
export const studentFilter = (q: {
  search?: string;
  status: 'all' | 'invited' | 'started' | 'completed';
}) => ({
  search: q.search || undefined,
  status: q.status === 'all' ? undefined : q.status,
});

/** The students a bulk reminder reaches: the list's filter, as the list was showing it. */
export const remindBody = jsonBody(filterFields);

export const remindQuery = z.object({
  dryRun: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .describe('true: only count the students a reminder would reach now'),
});

export const listQuery = z.object({
  ...filterFields,
  page: z.coerce.number().int().min(1).optional().default(1),
  limit: z.coerce.number().int().min(1).max(100).optional().default(20),
});

export const studentOut = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  phoneNumber: z.string().optional(),
  status: z.enum(['invited', 'started', 'completed']),
  inviteToken: z.string(),
  inviteUrl: z.string(),
  extraTimePercent: z.number().int(),
  language: languageSchema
    .nullable()
    .describe("Chosen at invitation or by the student's last switch; null: the browser's"),
  createdAt: z.string(),
  invitedAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
  reminderCount: z.number().int().describe('Reminders sent so far, the job’s and administrators’'),
  lastRemindedAt: z.string().nullable().describe('When the last reminder was sent; null: never'),
});

export const withMessage = z.object({ message: z.string(), student: studentOut });

export const toStudentJson = (s: StudentView) => ({
  _id: s.id,
  name: s.name,
  email: s.email,
  phoneNumber: s.phoneNumber ?? undefined,
  status: s.status,
  inviteToken: s.inviteToken,
  inviteUrl: s.inviteUrl,
  extraTimePercent: s.extraTimePercent,
  language: s.language,
  createdAt: s.createdAt.toISOString(),
  invitedAt: s.invitedAt.toISOString(),
  expiresAt: s.expiresAt.toISOString(),
  expired: s.expired,
  reminderCount: s.reminderCount,
  lastRemindedAt: s.lastRemindedAt?.toISOString() ?? null,
});

/** The answer to an invitation sent (invited, or sent again): the student as the list shows them. */
export const invitationSent = (s: StudentView) => ({
  message: `Invitation sent to ${s.name}`,
  student: toStudentJson(s),
});

/** A whole number from `min` to `max` (a query string's text too), one message naming `what` and the bounds. */
export const whole = (what: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${what} must be a whole number from ${min} to ${max}` })
    .int(`${what} must be a whole number from ${min} to ${max}`)
    .min(min, `${what} must be a whole number from ${min} to ${max}`)
    .max(max, `${what} must be a whole number from ${min} to ${max}`);

/** The reminder schedule as an administrator sets it. */
export const reminderSettingsBody = jsonBody({
  afterDays: z
    .array(whole('Each number of days', 1, 365))
    .max(10, 'At most 10 reminder days')
    .describe('Days after the invitation (or its last resend) at which a reminder is due; empty: none'),
  beforeExpiryHours: whole('Hours before the link expires', 0, 720).describe('0: no reminder before expiry'),
  max: whole('The most reminders', 0, 20).describe('The most reminders the job sends one student; 0: none'),
});

export const reminderSettingsOut = z.object({
  afterDays: z.array(z.number().int()),
  beforeExpiryHours: z.number().int(),
  max: z.number().int(),
  updatedAt: z
    .string()
    .nullable()
    .describe("When an administrator saved them; null: the service's configuration"),
});

export const toReminderSettingsJson = (s: {
  afterDays: readonly number[];
  beforeExpiryHours: number;
  max: number;
  updatedAt: Date | null;
}) => ({
  afterDays: [...s.afterDays],
  beforeExpiryHours: s.beforeExpiryHours,
  max: s.max,
  updatedAt: s.updatedAt?.toISOString() ?? null,
});

import { languageSchema } from '@readiness/contracts';
import { emailField, personNameField, textField } from '@readiness/kit/http';
import { z } from 'zod';

export { emailField };

export const nameField = personNameField;

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

const body = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape, { error: 'Request body must be a JSON object' });

export const inviteBody = body({
  name: nameField,
  email: emailField,
  phoneNumber: phoneField,
  extraTimePercent: extraTimeField.optional().default(0),
  language: languageField,
});

export const patchBody = body({ extraTimePercent: extraTimeField });

/** Any id: one that is not a student's answers 404 like an unknown one. */
export const idParams = z.object({ id: z.string() });

export const listQuery = z.object({
  search: z.string().trim().max(200).optional(),
  status: z.enum(['all', 'invited', 'started', 'completed']).optional().default('all'),
  page: z.coerce.number().int().min(1).optional().default(1),
  limit: z.coerce.number().int().min(1).max(100).optional().default(20),
});

export const liveQuery = listQuery.omit({ status: true }).extend({
  limit: z.coerce.number().int().min(1).max(100).optional().default(25),
});

export const attemptParams = z.object({ attemptId: z.string() });

const MINUTES_MESSAGE = 'Minutes must be a whole number from 1 to 600';
/** Minutes added to a running attempt: a whole, positive number (an extension never shortens), at most 10 hours. */
export const extendBody = body({
  minutes: z
    .number({ error: MINUTES_MESSAGE })
    .int(MINUTES_MESSAGE)
    .min(1, MINUTES_MESSAGE)
    .max(600, MINUTES_MESSAGE),
});

export const importQuery = z.object({
  dryRun: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

export const csvRow = z.object({
  name: nameField,
  email: emailField,
  phoneNumber: phoneField,
  extraTimePercent: z.preprocess((v) => (v === '' || v === undefined ? 0 : v), extraTimeField),
  language: languageField,
});

/** The student's own switch on the pages: one of the languages. */
export const languageBody = body({ language: languageSchema });

/** Any token: a malformed one answers the same 404 as an unknown, expired or deleted one. */
export const tokenParams = z.object({ token: z.string() });

const answerText = textField({ label: 'Answer' }).max(255, 'An answer must be at most 255 characters');
const questionId = textField({ label: 'Question id' })
  .min(1, 'Question id is required')
  .max(100, 'Question id must be at most 100 characters');

/** At most this many answers in one request: more than any assessment has questions. */
export const MAX_ANSWERS = 500;

export const answersField = z
  .array(z.object({ questionId, answer: answerText }, { error: 'Each answer is {questionId, answer}' }), {
    error: 'answers must be a list of {questionId, answer}',
  })
  .max(MAX_ANSWERS, `At most ${MAX_ANSWERS} answers`);

export const autosaveBody = body({
  attemptId: z.string({ error: 'attemptId is required' }).max(100),
  seq: z
    .number({ error: 'seq must be a whole number' })
    .int('seq must be a whole number')
    .min(0, 'seq must be a whole number')
    .max(Number.MAX_SAFE_INTEGER),
  answers: answersField,
});

/** At most this many facts in one activity report: the page sends them every few seconds. */
export const MAX_ACTIVITY = 50;
const momentField = z.iso.datetime({ offset: true, error: 'at must be an ISO 8601 time' });
const seconds = z
  .number({ error: 'seconds must be a whole number from 0 to 86400' })
  .int('seconds must be a whole number from 0 to 86400')
  .min(0, 'seconds must be a whole number from 0 to 86400')
  .max(86_400, 'seconds must be a whole number from 0 to 86400');

/** What the student's page reports of its attempt for the timeline (issue 26): facts the server cannot see. */
export const activityEntry = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('section_reached'),
      at: momentField,
      sectionId: z.number({ error: 'sectionId must be a section number' }).int().min(0).max(1_000_000),
    }),
    z.object({ kind: z.literal('page_hidden'), at: momentField, seconds }),
    z.object({ kind: z.literal('offline'), at: momentField, seconds }),
    z.object({
      kind: z.literal('pasted'),
      at: momentField,
      questionId,
      chars: z
        .number({ error: 'chars must be a whole number from 1 to 1000000' })
        .int('chars must be a whole number from 1 to 1000000')
        .min(1, 'chars must be a whole number from 1 to 1000000')
        .max(1_000_000, 'chars must be a whole number from 1 to 1000000'),
    }),
  ],
  { error: 'Each entry is a section_reached, page_hidden, offline or pasted fact' },
);
export type ActivityEntry = z.infer<typeof activityEntry>;

export const activityBody = body({
  attemptId: z.string({ error: 'attemptId is required' }).max(100),
  deviceId: z
    .string({ error: 'deviceId is required' })
    .regex(/^[A-Za-z0-9_-]{8,64}$/, 'deviceId must be 8 to 64 letters, digits, - or _'),
  entries: z
    .array(activityEntry, { error: 'entries must be a list' })
    .max(MAX_ACTIVITY, `At most ${MAX_ACTIVITY} entries`),
});

export const fileFields = z.object({
  attemptId: z.string({ error: 'attemptId is required' }).max(100),
  questionId,
});

export const questionParams = z.object({ token: z.string(), questionId: z.string() });

export const adminFileParams = z.object({
  studentId: z.string(),
  attemptId: z.string(),
  questionId: z.string(),
});

/** A JSON submit; the multipart one carries the same fields as text (`answers` and `fileQuestionIds` as JSON). */
export const submitBody = body({
  attemptId: z.string().max(100).optional(),
  answers: answersField.default([]),
  /** Whole minutes by the page's count: kept for the SPEC's payload, the server's clock decides. */
  timeSpent: z.coerce.number().min(0).max(100_000).optional(),
  startedAt: z.string().max(64).optional(),
  fileQuestionIds: z.array(questionId).max(MAX_ANSWERS).optional(),
});

export const idempotencyKey = textField({ label: 'Idempotency-Key' })
  .min(1)
  .max(200, 'Idempotency-Key must be at most 200 characters')
  .optional();

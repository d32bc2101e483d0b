import { z } from 'zod';
import { jsonBody } from '../json-body';
import { questionIdField } from './student-answers';

/** At most this many facts in one activity report: the page sends them every few seconds. */
export const MAX_ACTIVITY = 50;
const momentField = z.iso.datetime({ offset: true, error: 'at must be an ISO 8601 time' });
const seconds = z
  .number({ error: 'seconds must be a whole number from 0 to 86400' })
  .int('seconds must be a whole number from 0 to 86400')
  .min(0, 'seconds must be a whole number from 0 to 86400')
  .max(86_400, 'seconds must be a whole number from 0 to 86400');

/** What the student's page reports of its attempt for the timeline: facts the server cannot see. */
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
      questionId: questionIdField,
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

export const activityBody = jsonBody({
  attemptId: z.string({ error: 'attemptId is required' }).max(100),
  deviceId: z
    .string({ error: 'deviceId is required' })
    .regex(/^[A-Za-z0-9_-]{8,64}$/, 'deviceId must be 8 to 64 letters, digits, - or _'),
  entries: z
    .array(activityEntry, { error: 'entries must be a list' })
    .max(MAX_ACTIVITY, `At most ${MAX_ACTIVITY} entries`),
});

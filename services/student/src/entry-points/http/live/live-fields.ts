import { z } from 'zod';
import { jsonBody } from '../json-body';
import { listQuery } from '../students/student-fields';

/* What the Live screen asks and is answered. */

export const liveQuery = listQuery.omit({ status: true }).extend({
  limit: z.coerce.number().int().min(1).max(100).optional().default(25),
});

export const attemptParams = z.object({ attemptId: z.string() });

const MINUTES_MESSAGE = 'Minutes must be a whole number from 1 to 600';
/** Minutes added to a running attempt: a whole, positive number (an extension never shortens), at most 10 hours. */
export const extendBody = jsonBody({
  minutes: z
    .number({ error: MINUTES_MESSAGE })
    .int(MINUTES_MESSAGE)
    .min(1, MINUTES_MESSAGE)
    .max(600, MINUTES_MESSAGE),
});

export const liveAttemptOut = z.object({
  attemptId: z.string(),
  studentId: z.string(),
  name: z.string(),
  email: z.string(),
  attemptNumber: z.number().int(),
  section: z
    .object({ number: z.number().int(), title: z.string(), count: z.number().int() })
    .nullable()
    .describe(
      "The section the student's page is on (the one it last reported reaching); null before it reported one",
    ),
  answered: z.number().int(),
  total: z.number().int(),
  startedAt: z.string(),
  deadlineAt: z.string(),
  timeLeftSeconds: z.number().int(),
  savedAt: z.string().nullable(),
  presence: z
    .enum(['active', 'idle', 'offline'])
    .describe(
      'active: saved within 2 min; idle: the page is open, nothing saved for longer; offline: no page',
    ),
  idleMinutes: z.number().int(),
  extraTimePercent: z.number().int(),
  addedMinutes: z.number().int().describe('Minutes administrators added while it ran'),
});

/** An attempt an administrator can no longer change. */
export const NOT_IN_PROGRESS =
  'attempt_closed: submitted, ended, or past its deadline and grace; nothing changed';

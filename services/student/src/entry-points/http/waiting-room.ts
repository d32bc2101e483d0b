import { adminClaims } from '@readiness/kit/auth';
import { z } from 'zod';
import { lineOut } from './pages/page-schemas';
import { jsonBody } from './json-body';
import { TAGS, operation } from './operation';

const CEILING = { min: 1, max: 100_000 };
const CEILING_MESSAGE = `ceilingPerMinute must be a whole number from ${CEILING.min} to ${CEILING.max}, or null`;

const viewOut = lineOut.extend({
  enabled: z.boolean().describe('False when WAITING_ROOM is off: every student starts at once'),
  unlimited: z
    .boolean()
    .describe('True when nothing limits the rate (WAITING_ROOM=limit-only without a limit): nobody waits'),
  longestWaitSeconds: z.number().int().describe('How long the first student in line has waited'),
  ceilingPerMinute: z.number().int().nullable().describe("The administrators' limit; null: automatic"),
  pressure: z
    .enum(['healthy', 'overloaded'])
    .describe('Whether a replica reported pressure in the last seconds'),
  admittedLastMinute: z.number().int().describe('Attempts started in the last minute'),
});

const ceilingBody = jsonBody({
  ceilingPerMinute: z
    .number({ error: CEILING_MESSAGE })
    .int(CEILING_MESSAGE)
    .min(CEILING.min, CEILING_MESSAGE)
    .max(CEILING.max, CEILING_MESSAGE)
    .nullable(),
});

/**
 * The waiting room (docs/waiting-room.md): the line's public figures that a waiting page follows, and the Live
 * screen's view of it with the administrators' limit on the rate.
 */
export const waitingRoomOperations = {
  'GET /api/waiting-room': operation({
    summary:
      'The line to start at the peak: the last ticket served, the rate, how many wait; the same for everyone (a page compares its own ticket)',
    tags: [TAGS.flow.name],
    responses: {
      200: {
        description: 'The line as it stands (at most a second old)',
        body: lineOut.extend({ serverNow: z.string() }),
      },
    },
    async handle({ res }, { waitingRoom }) {
      res.setHeader('Cache-Control', 'public, max-age=1');
      return { ...(await waitingRoom.line()), serverNow: new Date().toISOString() };
    },
  }),
  'GET /api/admin/students/waiting-room': operation({
    summary: 'The waiting room on the Live screen: how many wait, the longest wait, the rate and its limit',
    tags: [TAGS.live.name],
    admin: true,
    responses: { 200: { description: 'The line now', body: viewOut } },
    handle: (_req, { waitingRoom }) => waitingRoom.view(),
  }),
  'PUT /api/admin/students/waiting-room': operation({
    summary:
      "Raise or lower the admission rate: at most ceilingPerMinute starts a minute, or null for the product's measured capacity alone",
    tags: [TAGS.live.name],
    admin: true,
    body: ceilingBody,
    responses: {
      200: { description: 'The line with the new limit, in force at once', body: viewOut },
      400: CEILING_MESSAGE,
    },
    async handle({ body, res }, { waitingRoom }) {
      await waitingRoom.setCeiling(body.ceilingPerMinute, adminClaims(res).sub);
      return waitingRoom.view();
    },
  }),
};

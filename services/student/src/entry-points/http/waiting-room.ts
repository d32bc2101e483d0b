import { adminClaims } from '@readiness/kit/auth';
import { AppError } from '@readiness/kit/errors';
import { z } from 'zod';
import { lineOut } from './pages/page-schemas';
import { eventStream } from './event-stream';
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
  'GET /api/waiting-room/events': operation({
    summary:
      "Server-sent events: the line's figures (`line` events), now and every second; each gateway follows it once for all its waiting pages",
    tags: [TAGS.flow.name],
    responses: {
      200: {
        description:
          'text/event-stream: `line` events ({ serving, perMinute, waiting, serverNow }, as GET /api/waiting-room answers), at once and every second; through the gateway a page is told about every 5 s. The stream ends after 5 minutes or when the service drains, and the follower comes back',
      },
      429: 'This replica already serves its most followers (see Retry-After)',
    },
    handle({ res, req }, { waitingRoom }) {
      const stream = eventStream(req, res, { event: 'line', retryMs: 1000 });
      const following = waitingRoom.followers.follow({
        send: (line) => stream.sink.send({ ...line, serverNow: new Date().toISOString() }),
        end: stream.sink.end,
      });
      if (!following) {
        throw new AppError('too_many_streams', 'Too many followers of the line on this replica', 429, {
          details: { retryAfterSeconds: 5 },
        });
      }
      stream.hold(following);
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

import { adminClaims } from '@readiness/kit/auth';
import { listPage, pagination } from '@readiness/kit/openapi';
import { z } from 'zod';
import { TAGS, operation } from '../operation';
import { NOT_IN_PROGRESS, attemptParams, extendBody, liveAttemptOut, liveQuery } from './live-fields';

/** Every operation of the Live screen: tagged Live attempts, for administrators only. */
const LIVE_SCREEN = { tags: [TAGS.live.name], admin: true };

/**
 * The Live screen (under /api/admin/live): the attempts in progress, and what an administrator may do to one while
 * it runs (add time, end it).
 */
export const liveScreen = {
  'GET /api/admin/live': operation({
    summary:
      'Attempts in progress, least time left first: section, answered, time left, last save and presence; search, page and limit (at most 100)',
    ...LIVE_SCREEN,
    query: liveQuery,
    responses: {
      200: {
        description: 'One page, with the server clock the time left was computed from',
        body: listPage({ attempts: z.array(liveAttemptOut) }, { serverNow: z.string() }),
      },
      400: 'A query parameter is out of range',
    },
    async handle({ query: q }, { attempts }) {
      const {
        attempts: found,
        total,
        now,
      } = await attempts.live({
        search: q.search || undefined,
        page: q.page,
        limit: q.limit,
      });
      return {
        attempts: found,
        pagination: pagination(q.page, q.limit, total),
        serverNow: now.toISOString(),
      };
    },
  }),
  'POST /api/admin/live/{attemptId}/extend': operation({
    summary:
      "Add minutes to an attempt in progress (1 to 600 at a time, at most ADDED_TIME_MAX_MULTIPLE times its time limit in all; several at once apply one after another); the student's page shows it within seconds",
    ...LIVE_SCREEN,
    params: attemptParams,
    body: extendBody,
    responses: {
      200: {
        description: 'The new deadline',
        body: z.object({
          message: z.string(),
          attempt: z.object({
            attemptId: z.string(),
            deadlineAt: z.string(),
            timeLeftSeconds: z.number().int(),
          }),
        }),
      },
      400: 'Minutes must be a whole number from 1 to 600',
      404: 'Attempt not found',
      409: `${NOT_IN_PROGRESS}; or extension_limit: more than the most time an attempt can be given (the message says the limit and what is left), nothing changed`,
    },
    async handle({ params, body, res }, { attempts }) {
      const a = await attempts.extend({
        attemptId: params.attemptId,
        minutes: body.minutes,
        actorId: adminClaims(res).sub,
      });
      return {
        message: `Added ${body.minutes} ${body.minutes === 1 ? 'minute' : 'minutes'} for ${a.name}`,
        attempt: {
          attemptId: a.attemptId,
          deadlineAt: a.deadlineAt.toISOString(),
          timeLeftSeconds: Math.max(0, Math.floor((a.deadlineAt.getTime() - a.now.getTime()) / 1000)),
        },
      };
    },
  }),
  'POST /api/admin/live/{attemptId}/end': operation({
    summary:
      'End an attempt in progress now; it is scored from its last saved answers, exactly as the deadline job scores one',
    ...LIVE_SCREEN,
    params: attemptParams,
    responses: {
      200: { description: 'Ended; its result follows', body: z.object({ message: z.string() }) },
      404: 'Attempt not found',
      409: NOT_IN_PROGRESS,
    },
    async handle({ params, res }, { attempts }) {
      const ended = await attempts.end({ attemptId: params.attemptId, actorId: adminClaims(res).sub });
      return { message: `Attempt ended for ${ended.name}; it is scored from the last saved answers` };
    },
  }),
};

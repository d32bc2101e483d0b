import { z } from 'zod';
import { api, LIST } from '../../../lib/api';
import { request } from '../../../lib/api-request';
import { wholeNumberField } from '../../../lib/forms';
import type { ApiAnswer } from '../../../lib/api-types';
import { adminT } from '../../../i18n/admin/admin-i18n';

/*
 * The shapes the student service's Live operations answer with, as they declare them (the generated
 * `api-schema.ts`).
 */

/** `GET /api/admin/live`: one page of the attempts in progress, least time left first, and the server's clock. */
export type LiveAttemptList = ApiAnswer<'/api/admin/live', 'get'>;
/** An attempt in progress: who, the section they are on, answers, deadline, last save and presence. */
export type LiveAttempt = LiveAttemptList['attempts'][number];
/** When the student's page last showed signs of life: it saves while they work, and holds a stream open. */
export type Presence = LiveAttempt['presence'];
export type ExtendAnswer = ApiAnswer<'/api/admin/live/{attemptId}/extend', 'post'>;
export type EndAnswer = ApiAnswer<'/api/admin/live/{attemptId}/end', 'post'>;

/**
 * How often the Live screen asks again: within the 5 s the issue asks for; a list costs the service about 5 ms of CPU
 * (docs/benchmarks.md).
 */
export const LIVE_POLL_MS = 4000;

export interface LiveQuery {
  search: string;
  page: number;
  limit: number;
}

const MINUTES_MESSAGE = adminT('live.addTime.minutesInvalid');
/** Time added to an attempt in progress: whole minutes, as the service takes them. */
export const addTimeSchema = z.object({
  minutes: wholeNumberField(1, 600, MINUTES_MESSAGE),
});
export type AddTimeInput = z.infer<typeof addTimeSchema>;

export const liveApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLiveAttempts: build.query<LiveAttemptList & { receivedAt: number }, LiveQuery>({
      query: ({ search, page, limit }) =>
        request('/api/admin/live', 'get', {
          query: { ...(search.trim() ? { search: search.trim() } : {}), page, limit },
        }),
      // The moment the answer arrived, next to serverNow, gives the device clock's offset.
      transformResponse: (body: LiveAttemptList) => ({ ...body, receivedAt: Date.now() }),
      providesTags: (list) => [
        { type: 'LiveAttempt' as const, id: LIST },
        ...(list?.attempts ?? []).map((a) => ({ type: 'LiveAttempt' as const, id: a.attemptId })),
      ],
    }),
    extendAttempt: build.mutation<ExtendAnswer, { attemptId: string } & AddTimeInput>({
      query: ({ attemptId, minutes }) =>
        request('/api/admin/live/{attemptId}/extend', 'post', { path: { attemptId }, body: { minutes } }),
      invalidatesTags: (_r, _e, { attemptId }) => [{ type: 'LiveAttempt', id: attemptId }],
    }),
    endAttempt: build.mutation<EndAnswer, string>({
      query: (attemptId) => request('/api/admin/live/{attemptId}/end', 'post', { path: { attemptId } }),
      // The attempt leaves the list and is scored: the student's status, the results and the dashboard change.
      invalidatesTags: [
        { type: 'LiveAttempt', id: LIST },
        { type: 'Student', id: LIST },
        { type: 'Result', id: LIST },

        'Dashboard',
      ],
    }),
  }),
});

export const { useGetLiveAttemptsQuery, useExtendAttemptMutation, useEndAttemptMutation } = liveApi;

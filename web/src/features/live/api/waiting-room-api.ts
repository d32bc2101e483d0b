import { z } from 'zod';
import { api } from '../../../lib/api';
import { request } from '../../../lib/api-request';
import type { ApiAnswer, ApiBody } from '../../../lib/api-types';
import { wholeNumberField } from '../../../lib/forms';
import { adminT } from '../../../i18n/admin/admin-i18n';

/**
 * `GET` and `PUT /api/admin/students/waiting-room` (docs/waiting-room.md): the line of students who could not start
 * at once, the rate they are let in at, and the admins' limit on it (`null`: as fast as the measured capacity allows).
 */
export type WaitingRoom = ApiAnswer<'/api/admin/students/waiting-room', 'get'>;
export type WaitingRoomChange = ApiBody<'/api/admin/students/waiting-room', 'put'>;

/** The most starts a minute an admin can set, as the student service takes it. */
export const MAX_CEILING_PER_MINUTE = 100_000;

const CEILING_MESSAGE = adminT('live.waiting.ceilingInvalid');
/** An admission limit: a whole number of starts a minute. */
export const ceilingSchema = z.object({
  ceilingPerMinute: wholeNumberField(1, MAX_CEILING_PER_MINUTE, CEILING_MESSAGE),
});
export type CeilingInput = z.infer<typeof ceilingSchema>;

export const waitingRoomApi = api.injectEndpoints({
  endpoints: (build) => ({
    getWaitingRoom: build.query<WaitingRoom, void>({
      query: () => request('/api/admin/students/waiting-room', 'get'),
      providesTags: ['WaitingRoom'],
    }),
    setAdmissionLimit: build.mutation<WaitingRoom, WaitingRoomChange>({
      query: (body) => request('/api/admin/students/waiting-room', 'put', { body }),
      invalidatesTags: ['WaitingRoom'],
    }),
  }),
});

export const { useGetWaitingRoomQuery, useSetAdmissionLimitMutation } = waitingRoomApi;

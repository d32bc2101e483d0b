import { z } from 'zod';
import { api } from '../../../lib/api';
import { wholeNumberField } from '../../../lib/forms';
import { adminT } from '../../../i18n/admin/admin-i18n';

/**
 * `GET` and `PUT /api/admin/students/waiting-room` (docs/waiting-room.md): the line of students who could not start
 * at once, the rate they are let in at, and the admins' limit on it (`null`: as fast as the measured capacity allows).
 */
export interface WaitingRoom {
  enabled: boolean;
  waiting: number;
  longestWaitSeconds: number;
  perMinute: number;
  ceilingPerMinute: number | null;
  pressure: 'overloaded' | 'healthy';
  admittedLastMinute: number;
}
export interface WaitingRoomChange {
  ceilingPerMinute: number | null;
}

/** The most starts a minute an admin can set, as the student service takes it. */
export const MAX_CEILING_PER_MINUTE = 100_000;

const CEILING_MESSAGE = adminT('live.waiting.ceilingInvalid');
/** An admission limit: a whole number of starts a minute. */
export const ceilingSchema = z.object({
  ceilingPerMinute: wholeNumberField(1, MAX_CEILING_PER_MINUTE, CEILING_MESSAGE),
});
export type CeilingInput = z.infer<typeof ceilingSchema>;

const PATH = 'admin/students/waiting-room';

export const waitingRoomApi = api.injectEndpoints({
  endpoints: (build) => ({
    getWaitingRoom: build.query<WaitingRoom, void>({
      query: () => PATH,
      providesTags: ['WaitingRoom'],
    }),
    setAdmissionLimit: build.mutation<WaitingRoom, WaitingRoomChange>({
      query: (body) => ({ url: PATH, method: 'PUT', body }),
      invalidatesTags: ['WaitingRoom'],
    }),
  }),
});

export const { useGetWaitingRoomQuery, useSetAdmissionLimitMutation } = waitingRoomApi;

import { api, LIST } from '../../../lib/api';
import { request } from '../../../lib/api-request';
import type { ApiAnswer } from '../../../lib/api-types';
import { adminT } from '../../../i18n/admin/admin-i18n';

/** One of the signed-in admin's own sessions, as the auth service lists them. */
type OwnSessions = ApiAnswer<'/api/auth/sessions', 'get'>;
export type OwnSession = OwnSessions['sessions'][number];

export const sessionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOwnSessions: build.query<OwnSession[], void>({
      query: () => request('/api/auth/sessions', 'get'),
      transformResponse: (body: OwnSessions) => body.sessions,
      providesTags: (sessions = []) => [
        { type: 'OwnSession', id: LIST },
        ...sessions.map((s) => ({ type: 'OwnSession' as const, id: s._id })),
      ],
    }),
    endOwnSession: build.mutation<void, string>({
      query: (id) => request('/api/auth/sessions/{id}', 'delete', { path: { id } }),
      invalidatesTags: (_r, _e, id) => [{ type: 'OwnSession', id }],
    }),
    endAllOwnSessions: build.mutation<void, void>({
      query: () => request('/api/auth/sessions', 'delete'),
    }),
  }),
});

export const { useGetOwnSessionsQuery, useEndOwnSessionMutation, useEndAllOwnSessionsMutation } = sessionsApi;

/** 'Chrome on Linux', or what is known of it. */
export function deviceName(session: Pick<OwnSession, 'browser' | 'os'>): string {
  if (session.browser && session.os)
    return adminT('auth.sessions.device', { browser: session.browser, os: session.os });
  return session.browser ?? session.os ?? adminT('auth.sessions.unknownDevice');
}

import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs } from '@reduxjs/toolkit/query/react';
import { request } from '../../../lib/api-request';
import type {
  AssessmentLoad,
  StartAnswer,
  StudentResult,
  SubmitAnswer,
  SubmitBody,
  WaitingAnswer,
  WaitingRoomFigures,
} from './types';

/*
 * The student pages' own API slice (STYLE §12). A student proves who they are by the invitation token in
 * the path, never by a bearer token: nothing here reads the admin session, and a 401 is an ordinary
 * failure of the call that got it, not a sign-out.
 */

const rawBaseQuery = fetchBaseQuery();

/** The call under `/api/`, made absolute so the same code runs in the browser and under jsdom. */
const studentBaseQuery: BaseQueryFn<FetchArgs, unknown, unknown> = (args, api, extra) =>
  rawBaseQuery(
    { ...args, url: new URL(`/api/${args.url}`, window.location.origin).href },
    api,
    extra as object,
  );

/**
 * The line's figures (`GET /api/waiting-room`, or a `line` message of its event stream) with the moment they arrived
 * on this device's clock: the waiting page carries the serving number forward from then.
 */
export const heardNow = (body: WaitingRoomFigures): WaitingRoomFigures & { receivedAt: number } => ({
  ...body,
  receivedAt: Date.now(),
});

export interface SubmitArgs {
  token: string;
  body: SubmitBody;
}

export const studentApi = createApi({
  reducerPath: 'studentApi',
  baseQuery: studentBaseQuery,
  tagTypes: ['StudentAssessment', 'StudentResults'],
  endpoints: (build) => ({
    getStudentAssessment: build.query<AssessmentLoad & { receivedAt: number }, string>({
      query: (token) => request('/api/student/{token}/assessment', 'get', { path: { token } }),
      // The moment the answer arrived, next to serverNow, gives the client clock's offset.
      transformResponse: (body: AssessmentLoad) => ({ ...body, receivedAt: Date.now() }),
      providesTags: ['StudentAssessment'],
      // A later visit must see the attempt as the server has it now, never a cached copy.
      keepUnusedDataFor: 0,
    }),
    // Started (201, or 200 for the attempt in progress), or in line to start (202: `waiting`).
    startAssessment: build.mutation<(StartAnswer | WaitingAnswer) & { receivedAt: number }, string>({
      query: (token) => request('/api/student/{token}/start', 'post', { path: { token } }),
      transformResponse: (body: StartAnswer | WaitingAnswer) => ({ ...body, receivedAt: Date.now() }),
    }),
    // The waiting page polls it; every answer is a new look at the line, never a cached one.
    getWaitingRoom: build.query<WaitingRoomFigures & { receivedAt: number }, void>({
      query: () => request('/api/waiting-room', 'get'),
      transformResponse: heardNow,
      keepUnusedDataFor: 0,
    }),
    submitAssessment: build.mutation<SubmitAnswer, SubmitArgs>({
      query: ({ token, body }) =>
        request('/api/student/{token}/submit', 'post', {
          path: { token },
          body,
          // A repeated submit (a retry after a lost answer, a second tab) returns the first outcome.
          headers: { 'Idempotency-Key': body.attemptId },
        }),
      invalidatesTags: ['StudentResults'],
    }),
    getStudentResults: build.query<StudentResult[], string>({
      query: (token) => request('/api/student/{token}/results', 'get', { path: { token } }),
      transformResponse: (body: { results?: StudentResult[] }) => body.results ?? [],
      providesTags: ['StudentResults'],
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useGetStudentAssessmentQuery,
  useStartAssessmentMutation,
  useLazyGetWaitingRoomQuery,
  useSubmitAssessmentMutation,
  useGetStudentResultsQuery,
} = studentApi;

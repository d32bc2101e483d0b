import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { clearToken, readToken, storeToken, tokenExpiresAt } from './session-token';
import { sessionExpired, tokenRefreshed } from './session-events';

/** Renew the token when it has less than this left, so an admin at work is never cut off. */
export const REFRESH_WINDOW_MS = 10 * 60 * 1000;

// An absolute base keeps the same code working in the browser and under jsdom, whose fetch needs one.
const apiBaseUrl = () => new URL('/api/', window.location.origin).href;

// The spec's HTTP client has no timeout; fetch has none either.
const rawBaseQuery = fetchBaseQuery({
  prepareHeaders: (headers) => {
    const token = readToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

const withBase = (args: string | FetchArgs): FetchArgs => {
  const request = typeof args === 'string' ? { url: args } : args;
  return { ...request, url: new URL(request.url.replace(/^\//, ''), apiBaseUrl()).href };
};

const urlOf = (args: string | FetchArgs) => (typeof args === 'string' ? args : args.url);

// Calls that prove identity by credentials, not by the current token: no refresh before them, and a
// 401 from them is a refused credential, not the end of a session.
const credentialCalls = /^\/?auth\/(login|refresh)$/;

/**
 * An API failure as the screens see it. `sessionEnded` marks a 401 to a call that carried the admin's
 * token: the session is over, the app signs out, and the failed action has nothing left to report.
 */
export type ApiError = FetchBaseQueryError & { sessionEnded?: true };

let refreshInFlight: Promise<void> | null = null;

/** Renews the token once, however many calls notice at the same time that it is about to expire. */
async function refreshIfNearExpiry(api: Parameters<BaseQueryFn>[1], extra: object): Promise<void> {
  const token = readToken();
  if (!token) return;
  const expiresAt = tokenExpiresAt(token);
  if (expiresAt === null) return;
  const left = expiresAt - Date.now();
  if (left <= 0 || left > REFRESH_WINDOW_MS) return;
  refreshInFlight ??= (async () => {
    try {
      const result = await rawBaseQuery(withBase({ url: 'auth/refresh', method: 'POST' }), api, extra);
      const fresh = (result.data as { token?: unknown } | undefined)?.token;
      if (typeof fresh === 'string' && readToken() === token) {
        storeToken(fresh);
        api.dispatch(tokenRefreshed(fresh));
      }
    } finally {
      refreshInFlight = null;
    }
  })();
  await refreshInFlight;
}

const sessionBaseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError> = async (args, api, extra) => {
  const authenticated = !credentialCalls.test(urlOf(args));
  if (authenticated) await refreshIfNearExpiry(api, extra as object);
  const sentToken = authenticated ? readToken() : null;
  const result = await rawBaseQuery(withBase(args), api, extra as object);
  if (result.error?.status === 401) {
    clearToken();
    api.dispatch(sessionExpired());
    if (sentToken) return { error: { ...result.error, sessionEnded: true }, meta: result.meta };
  }
  return result;
};

/**
 * Reads one field of a response body. Every endpoint unwraps its answer through this function, so a
 * change in the server's envelope (e.g. `{ data: { admins } }`) is adapted here and nowhere else.
 */
export function field<T>(key: string) {
  return (body: unknown): T => {
    const source =
      typeof body === 'object' && body !== null && 'data' in body && !(key in body)
        ? (body as { data: unknown }).data
        : body;
    return (source as Record<string, unknown>)[key] as T;
  };
}

export const api = createApi({
  reducerPath: 'api',
  baseQuery: sessionBaseQuery,
  tagTypes: ['Session', 'Admin', 'Dashboard', 'Student', 'Assessment', 'AssessmentVersion', 'Result'],
  endpoints: () => ({}),
});

/** The tag that marks a whole list, next to one tag per id (STYLE §9). */
export const LIST = 'LIST' as const;

import type { Dispatch, UnknownAction } from '@reduxjs/toolkit';
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
const credentialCalls = /^\/?auth\/(login|login\/mfa|login\/mfa\/enrolment|refresh)$/;

/**
 * An API failure as the screens see it. `sessionEnded` marks a 401 to a call that carried the admin's
 * token: the session is over, the app signs out, and the failed action has nothing left to report.
 */
export type ApiError = FetchBaseQueryError & { sessionEnded?: true };

/** How a renewal went: the caller that runs on its own (the idle timer) decides what each means. */
export type RenewalOutcome = 'renewed' | 'notDue' | 'refused' | 'failed';

let refreshInFlight: Promise<RenewalOutcome> | null = null;
/** The token whose renewal the server refused (the session reached its maximum age): not asked again. */
let refusedToken: string | null = null;

function isDue(token: string): boolean {
  const expiresAt = tokenExpiresAt(token);
  if (expiresAt === null) return false;
  const left = expiresAt - Date.now();
  return left > 0 && left <= REFRESH_WINDOW_MS;
}

async function requestRenewal(token: string, dispatch: Dispatch<UnknownAction>): Promise<RenewalOutcome> {
  let response: Response;
  try {
    response = await fetch(new URL('auth/refresh', apiBaseUrl()).href, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
  } catch {
    return 'failed';
  }
  if (response.status === 401) {
    refusedToken = token;
    return 'refused';
  }
  if (!response.ok) return 'failed';
  const fresh = field<unknown>('token')(await response.json().catch(() => null));
  if (typeof fresh !== 'string') return 'failed';
  // A login or logout while the renewal was on its way wins over it.
  if (readToken() !== token) return 'notDue';
  storeToken(fresh);
  dispatch(tokenRefreshed(fresh));
  return 'renewed';
}

/**
 * Renews the token when it has less than REFRESH_WINDOW_MS left, once, however many callers (calls
 * about to be sent, the idle timer, the tab regaining focus) notice at the same time.
 */
export function renewTokenIfDue(dispatch: Dispatch<UnknownAction>): Promise<RenewalOutcome> {
  const token = readToken();
  if (!token || !isDue(token)) return Promise.resolve('notDue');
  if (token === refusedToken) return Promise.resolve('refused');
  refreshInFlight ??= requestRenewal(token, dispatch).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

const sessionBaseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError> = async (args, api, extra) => {
  const authenticated = !credentialCalls.test(urlOf(args));
  // A refused renewal needs no handling here: the call itself then answers 401 and ends the session.
  if (authenticated) await renewTokenIfDue(api.dispatch);
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
  tagTypes: [
    'Session',
    'Admin',
    'Dashboard',
    'Student',
    'Assessment',
    'AssessmentVersion',
    'Result',
    'SecondFactor',
  ],
  endpoints: () => ({}),
});

/** The tag that marks a whole list, next to one tag per id (STYLE §9). */
export const LIST = 'LIST' as const;

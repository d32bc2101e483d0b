import type { Dispatch, UnknownAction } from '@reduxjs/toolkit';
import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import type { ApiAnswer } from './api-types';
import { typedFetch } from './api-fetch';
import { clearToken, readToken, storeToken, tokenExpiresAt, tokenLifetime } from './session-token';
import { sessionEndOf, sessionExpired, tokenRefreshed, type SessionEnd } from './session-events';

/** Renew the token when it has less than this left, so an admin at work is never cut off. */
export const REFRESH_WINDOW_MS = 10 * 60 * 1000;

/**
 * A token that lives no longer than the renewal window is an idle time limit the institution chose
 * (JWT_TTL_SECONDS): calls renew it, but nothing renews it behind the back of an admin who is away;
 * the expiry dialog asks them instead (WCAG 2.2.1).
 */
export const isIdleLimited = (token: string) => {
  const lifetime = tokenLifetime(token);
  return lifetime !== null && lifetime <= REFRESH_WINDOW_MS;
};

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
const credentialCalls = /^\/?auth\/(login|login\/mfa|login\/mfa\/enrolment|refresh|oidc\/session)$/;

/**
 * An API failure as the screens see it. `sessionEnded` marks a 401 to a call that carried the admin's
 * token: the session is over, the app signs out, and the failed action has nothing left to report.
 */
export type ApiError = FetchBaseQueryError & { sessionEnded?: true };

/**
 * How a renewal went: the caller that runs on its own (the idle timer) decides what each means. `final`: the
 * session has reached its maximum age, so its token stays good until it expires and is never renewed.
 */
export type RenewalOutcome = 'renewed' | 'notDue' | 'refused' | 'final' | 'failed';

type RefreshAnswer = ApiAnswer<'/api/auth/refresh', 'post'>;

let refreshInFlight: Promise<RenewalOutcome> | null = null;
/** The token whose renewal the server refused, and why: not asked again. */
let refused: { token: string; outcome: 'refused' | 'final'; end?: SessionEnd } | null = null;

/** Why the server refused to renew this token, when its answer said so (a stricter setting). */
export const renewalRefusal = (token: string | null): SessionEnd | undefined =>
  token !== null && refused?.token === token ? refused.end : undefined;

/** True when the server said this token's session cannot be extended (it reached its maximum age). */
export const cannotBeExtended = (token: string) => refused?.token === token && refused.outcome === 'final';

function isDue(token: string): boolean {
  const expiresAt = tokenExpiresAt(token);
  if (expiresAt === null) return false;
  const left = expiresAt - Date.now();
  return left > 0 && left <= REFRESH_WINDOW_MS;
}

async function requestRenewal(token: string, dispatch: Dispatch<UnknownAction>): Promise<RenewalOutcome> {
  let response: Response;
  try {
    response = await typedFetch('/api/auth/refresh', 'post', {
      headers: { Authorization: `Bearer ${token}` },
    });
  } catch {
    return 'failed';
  }
  if (response.status === 401) {
    const body = (await response.json().catch(() => null)) as { code?: unknown } | null;
    const code = body?.code;
    refused = { token, outcome: code === 'session_expired' ? 'final' : 'refused', end: sessionEndOf(code) };
    return refused.outcome;
  }
  if (!response.ok) return 'failed';
  const answer = (await response.json().catch(() => null)) as Partial<RefreshAnswer> | null;
  const fresh = answer?.token;
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
  if (token === refused?.token) return Promise.resolve(refused.outcome);
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
    // A token refused before its expiry was ended by someone (or something) else, and the login page says so.
    const expiresAt = sentToken ? tokenExpiresAt(sentToken) : null;
    const stricterSetting = sentToken
      ? sessionEndOf((result.error.data as { code?: unknown } | undefined)?.code)
      : undefined;
    api.dispatch(
      sessionExpired(
        stricterSetting ?? (expiresAt !== null && expiresAt > Date.now() ? 'endedElsewhere' : undefined),
      ),
    );
    if (sentToken) return { error: { ...result.error, sessionEnded: true }, meta: result.meta };
  }
  return result;
};

export const api = createApi({
  reducerPath: 'api',
  baseQuery: sessionBaseQuery,
  tagTypes: [
    'Session',
    'OwnSession',
    'Admin',
    'Dashboard',
    'Student',
    'StudentExport',
    'ReminderSettings',
    'RetentionSettings',
    'LiveAttempt',
    'WaitingRoom',
    'Assessment',
    'AssessmentVersion',
    'Result',
    'SecondFactor',
    'LtiPlatform',
    'LmsGrade',
    'WebhookEndpoint',
    'WebhookDelivery',
  ],
  endpoints: () => ({}),
});

/** The tag that marks a whole list, next to one tag per id (STYLE §9). */
export const LIST = 'LIST' as const;

import { createAction } from '@reduxjs/toolkit';

/*
 * Session events raised by shared code (the API layer) and handled by the auth feature, so that
 * lib/ never imports a feature (dependency direction: shared → features → app).
 */

/**
 * Why a session ended, when the app knows it was not simply its time: it was ended from elsewhere (another
 * session's "Sign out everywhere", a super admin disabling the account or resetting its password), this device
 * signed out of every session, or a stricter setting no longer allows it (the session is older than the
 * maximum age now in force, or was signed in in a way no longer allowed for the account).
 */
export type SessionEnd = 'endedElsewhere' | 'signedOutEverywhere' | 'maxAge' | 'signInMethodOff';

/** The reason a 401's `code` gives, when it is one of the settings' refusals. */
export function sessionEndOf(code: unknown): SessionEnd | undefined {
  if (code === 'session_max_age') return 'maxAge';
  if (code === 'sign_in_method_off') return 'signInMethodOff';
  return undefined;
}

/** Any call answered 401: the session is over (SPEC §4); the payload says why when it is known. */
export const sessionExpired = createAction<SessionEnd | undefined>('session/expired');

/** The token was renewed without a new login. */
export const tokenRefreshed = createAction<string>('session/tokenRefreshed');

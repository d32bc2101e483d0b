import { createAction } from '@reduxjs/toolkit';

/*
 * Session events raised by shared code (the API layer) and handled by the auth feature, so that
 * lib/ never imports a feature (dependency direction: shared → features → app).
 */

/** Any call answered 401: the session is over (SPEC §4). */
export const sessionExpired = createAction('session/expired');

/** The token was renewed without a new login. */
export const tokenRefreshed = createAction<string>('session/tokenRefreshed');

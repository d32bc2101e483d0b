import { useEffect } from 'react';
import { useSelector } from 'react-redux';
import { isIdleLimited, REFRESH_WINDOW_MS, renewalRefusal, renewTokenIfDue } from '../../lib/api';
import { useAppDispatch } from '../../lib/hooks';
import { sessionExpired } from '../../lib/session-events';
import { clearToken, readToken, tokenExpiresAt } from '../../lib/session-token';
import { selectAdmin } from './auth-slice';

/** After a renewal that could not reach the server, try again this much later while time is left. */
export const RENEWAL_RETRY_MS = 60 * 1000;

// setTimeout treats a delay above 2^31 - 1 ms as 0; a longer wait is taken in steps of this size.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Keeps an idle admin's session alive: while someone is signed in, the token is renewed
 * REFRESH_WINDOW_MS before it expires even if no call is made, so a tab left open is still signed in
 * when they come back. Renewal before each call (lib/api) stays; this covers the time between calls.
 *
 * Background tabs and sleeping laptops delay timers, so returning to the tab (focus, or the page
 * becoming visible) renews at once when the token is already inside the window.
 *
 * Not for a token that lives no longer than the window (`isIdleLimited`): that short lifetime is the idle
 * limit itself, and the expiry dialog (session-expiry.ts) asks the admin before it ends.
 */
export function useIdleSessionRenewal(): void {
  const admin = useSelector(selectAdmin);
  const dispatch = useAppDispatch();

  useEffect(() => {
    // Signing in again (login, a password change) sets a new admin and so restarts the schedule.
    if (!admin) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const schedule = (delay?: number) => {
      clearTimeout(timer);
      const token = readToken();
      const expiresAt = token ? tokenExpiresAt(token) : null;
      // An expired token cannot be renewed; the next call answers 401 and ends the session.
      if (stopped || !token || expiresAt === null || expiresAt <= Date.now()) return;
      if (isIdleLimited(token)) return;
      const wait = delay ?? expiresAt - REFRESH_WINDOW_MS - Date.now();
      timer = setTimeout(() => void renew(), Math.min(Math.max(wait, 0), LONGEST_TIMER_MS));
    };

    const renew = async () => {
      const token = readToken();
      if (token && isIdleLimited(token)) return;
      const outcome = await renewTokenIfDue(dispatch);
      if (stopped) return;
      if (outcome === 'refused') {
        // The server will not renew this session (revoked, admin disabled, a stricter setting): a 401 like any other.
        clearToken();
        dispatch(sessionExpired(renewalRefusal(token) ?? 'endedElsewhere'));
        return;
      }
      // The session has reached its maximum age: it goes on until its token expires, and the expiry dialog says so.
      if (outcome === 'final') return;
      schedule(outcome === 'failed' ? RENEWAL_RETRY_MS : undefined);
    };

    const onReturn = () => {
      if (document.visibilityState === 'visible') void renew();
    };

    schedule();
    window.addEventListener('focus', onReturn);
    document.addEventListener('visibilitychange', onReturn);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('focus', onReturn);
      document.removeEventListener('visibilitychange', onReturn);
    };
  }, [admin, dispatch]);
}

import { useCallback, useEffect, useRef, useState } from 'react';
import { useSelector } from 'react-redux';
import { cannotBeExtended, renewalRefusal, renewTokenIfDue } from '../../lib/api';
import { useAppDispatch } from '../../lib/hooks';
import { sessionExpired } from '../../lib/session-events';
import { clearToken, readToken, tokenExpiresAt, tokenLifetime } from '../../lib/session-token';
import { selectAdmin } from './auth-slice';

/** The warning comes this long before the session ends (WCAG 2.2.1 asks for at least 20 seconds). */
export const EXPIRY_WARNING_MS = 2 * 60 * 1000;
const CHECK_EVERY_MS = 1000;

/** What the expiry dialog shows: nothing, or the end of this token's session and whether it can be extended. */
export interface ExpiryNotice {
  token: string;
  endsAt: number;
  /** The session has reached its maximum age: it cannot be extended. */
  final: boolean;
  /** The last attempt to stay signed in could not reach the server. */
  failed: boolean;
}

/** A token shorter than four minutes is warned at half its life, so the warning is not there from the start. */
const warningLead = (token: string) => Math.min(EXPIRY_WARNING_MS, (tokenLifetime(token) ?? Infinity) / 2);

/**
 * Warns a signed-in admin before their session ends and lets them extend it (WCAG 2.2.1, Timing Adjustable).
 * The session ends when its token expires: an admin at work renews it with every call, and a long-lived token is
 * renewed by the idle timer too (session-renewal.ts), so the warning is for the admin who is away while a short
 * token runs out, for a session at its maximum age, and for renewals that could not reach the server. At the
 * end the admin is signed out, as a call would have found.
 */
export function useSessionExpiry() {
  const admin = useSelector(selectAdmin);
  const dispatch = useAppDispatch();
  const [notice, setNotice] = useState<ExpiryNotice | null>(null);
  const [busy, setBusy] = useState(false);
  const dismissedToken = useRef<string | null>(null);
  const failedToken = useRef<string | null>(null);

  const check = useCallback(() => {
    const token = readToken();
    const endsAt = token ? tokenExpiresAt(token) : null;
    if (!token || endsAt === null) {
      setNotice(null);
      return;
    }
    const left = endsAt - Date.now();
    if (left <= 0) {
      setNotice(null);
      clearToken();
      dispatch(sessionExpired());
      return;
    }
    if (left > warningLead(token) || dismissedToken.current === token) {
      setNotice(null);
      return;
    }
    const next = { token, endsAt, final: cannotBeExtended(token), failed: failedToken.current === token };
    setNotice((shown) =>
      shown && shown.token === next.token && shown.final === next.final && shown.failed === next.failed
        ? shown
        : next,
    );
  }, [dispatch]);

  useEffect(() => {
    if (!admin) {
      setNotice(null);
      return;
    }
    check();
    const timer = setInterval(check, CHECK_EVERY_MS);
    return () => clearInterval(timer);
  }, [admin, check]);

  const staySignedIn = useCallback(async () => {
    setBusy(true);
    const token = readToken();
    const outcome = await renewTokenIfDue(dispatch);
    setBusy(false);
    if (outcome === 'refused') {
      // Revoked meanwhile (signed out elsewhere, account disabled, a stricter setting): the session is already over.
      clearToken();
      dispatch(sessionExpired(renewalRefusal(token) ?? 'endedElsewhere'));
      return;
    }
    failedToken.current = outcome === 'failed' ? token : null;
    check();
  }, [check, dispatch]);

  const dismiss = useCallback(() => {
    dismissedToken.current = readToken();
    setNotice(null);
  }, []);

  return { notice, busy, staySignedIn, dismiss };
}

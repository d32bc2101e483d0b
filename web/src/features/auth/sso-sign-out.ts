/*
 * After a single sign-on, signing out of Readiness leaves the admin signed in at their institution's provider. The
 * provider's end-session address comes with the session; once the admin signs out, the login page offers it
 * (once). Kept in session storage: it belongs to this tab's session and holds no secret.
 */
const SESSION_KEY = 'readiness.sso.end-session';
const OFFER_KEY = 'readiness.sso.offer-sign-out';

function attempt<T>(work: () => T, fallback: T): T {
  try {
    return work();
  } catch {
    // Without storage the offer is simply not made.
    return fallback;
  }
}

export function rememberEndSession(url: string | undefined): void {
  attempt(() => {
    if (url) window.sessionStorage.setItem(SESSION_KEY, url);
    else window.sessionStorage.removeItem(SESSION_KEY);
  }, undefined);
}

/** At sign-out: the provider's address moves from the session to the login page's offer. */
export function offerEndSession(): void {
  attempt(() => {
    const url = window.sessionStorage.getItem(SESSION_KEY);
    window.sessionStorage.removeItem(SESSION_KEY);
    if (url) window.sessionStorage.setItem(OFFER_KEY, url);
  }, undefined);
}

/** The provider's end-session address to offer, read once. */
export function takeEndSessionOffer(): string | null {
  return attempt(() => {
    const url = window.sessionStorage.getItem(OFFER_KEY);
    window.sessionStorage.removeItem(OFFER_KEY);
    return url;
  }, null);
}

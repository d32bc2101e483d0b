import { notify } from './toast';

/*
 * A page that sends the visitor to another entry of the app (the student pages to `/`) loads a new
 * document, which would drop a toast on the way. The message is handed over in session storage and the
 * page that opens next shows it.
 */
const KEY = 'readiness.handed-over-toast';

export function handOverErrorToast(message: string): void {
  try {
    window.sessionStorage.setItem(KEY, message);
  } catch {
    // Without storage the next page simply shows no toast.
  }
}

export function showHandedOverToast(): void {
  try {
    const message = window.sessionStorage.getItem(KEY);
    if (!message) return;
    window.sessionStorage.removeItem(KEY);
    notify.error(message);
  } catch {
    // Storage unavailable: nothing was handed over.
  }
}

const INVALID_LINK_KEY = 'readiness.invalid-invitation-link';

/**
 * A visitor with a dead invitation link sent to `/`: the sign-in page then tells them why. The student pages now
 * show such a link a page of their own; a student page loaded before that change (a tab left open
 * across a deployment) still hands the visitor over this way, so the sign-in page keeps reading it.
 */
export function handOverInvalidLink(): void {
  try {
    window.sessionStorage.setItem(INVALID_LINK_KEY, '1');
  } catch {
    // Without storage the sign-in page shows only the toast.
  }
}

/** Whether the visitor just came from a dead invitation link (read once). */
export function takeInvalidLink(): boolean {
  try {
    const came = window.sessionStorage.getItem(INVALID_LINK_KEY) === '1';
    window.sessionStorage.removeItem(INVALID_LINK_KEY);
    return came;
  } catch {
    return false;
  }
}

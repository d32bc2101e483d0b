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

import { useLayoutEffect, type RefObject } from 'react';
import { toast, type ToastOptions } from 'react-toastify';
import { endedSession, errorMessage } from './errors';

/*
 * Toast timing. SPEC §9 lists the toast library's defaults (4 s default and error, 2 s success,
 * loading until dismissed, at most 20) and in the same row — as does §2 — says the student and admin
 * screens show their toasts for 4 seconds. The screens are all this app has, so every toast they
 * raise lasts 4 s (a 2 s success message is too short to read next to a 4 s error), loading toasts
 * stay until their outcome replaces them, and at most 20 are on screen at once.
 */
export const TOAST_DURATION_MS = 4000;
export const TOAST_LIMIT = 20;

const base: ToastOptions = { autoClose: TOAST_DURATION_MS };

export const notify = {
  success: (message: string) => toast.success(message, base),
  error: (message: string) => toast.error(message, base),
  info: (message: string) => toast.info(message, base),
  loading: (message: string) => toast.loading(message),
  dismiss: (id?: string | number) => toast.dismiss(id),
};

/**
 * Reports a failed load or action (SPEC §8): the server's message field, else `text` — or, with
 * `{ serverMessage: false }`, always `text`. A failure that ended the session shows nothing: the
 * admin is on their way to the login page, and a toast about the action they can no longer take
 * would only confuse. Login reports its own refusal and does not come through here.
 */
export function notifyFailure(error: unknown, text: string, { serverMessage = true } = {}): void {
  if (endedSession(error)) return;
  notify.error(serverMessage ? errorMessage(error, text) : text);
}

/** Marks an element toasts must never cover (the student's timer, save state and section tabs). */
export const KEEP_CLEAR = { 'data-toast-clear': '' } as const;

/**
 * While the calling screen is shown, the toasts start below every `KEEP_CLEAR` element inside `root` that is in
 * view (a sticky header, tabs at the top), at any width: the CSS variable `--toast-clearance` follows them as
 * the page scrolls and as they change size.
 */
export function useToastClearance(root: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = root.current;
    if (!element) return;
    const style = document.documentElement.style;
    const update = () => {
      let clearance = 0;
      for (const kept of element.querySelectorAll('[data-toast-clear]')) {
        const { bottom } = kept.getBoundingClientRect();
        if (bottom > clearance) clearance = bottom;
      }
      style.setProperty('--toast-clearance', `${Math.ceil(clearance)}px`);
    };
    update();
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update);
    for (const kept of element.querySelectorAll('[data-toast-clear]')) resized?.observe(kept);
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      resized?.disconnect();
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
      style.removeProperty('--toast-clearance');
    };
  }, [root]);
}

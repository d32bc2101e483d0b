import type { Response } from 'express';
import { toAppError } from '../errors';
import { escapeHtml } from '../i18n';

/**
 * A page a browser navigated to reads an answer as a person would: a refusal there (an LMS launch, a link from
 * one service to another) is a short HTML page with its status, never JSON or a stack.
 */
export function sendPage(res: Response, status: number, page: { title: string; message: string }): void {
  res
    .status(status)
    .type('html')
    .send(htmlPage(page.title, `<p>${escapeHtml(page.message)}</p>`));
}

/** The short page's document: `title` as its title and heading, then `bodyHtml` (markup the caller escaped). */
export function htmlPage(title: string, bodyHtml: string): string {
  const escaped = escapeHtml(title);
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escaped}</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem">` +
    `<h1>${escaped}</h1>${bodyHtml}</body></html>`
  );
}

/**
 * The page of a failure: an `AppError`'s own status and message (what the person can act on); anything else a
 * 500 that says nothing of its cause, which `log` is given.
 */
export function sendErrorPage(res: Response, err: unknown, title: string, log: (err: unknown) => void): void {
  const appError = toAppError(err);
  if (appError.httpStatus >= 500) log(err);
  const message =
    appError.httpStatus >= 500
      ? 'Something went wrong on our side. Try again in a moment.'
      : appError.message;
  sendPage(res, appError.httpStatus, { title, message });
}

import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

/** True when the server answered with an HTTP error status (as opposed to a network or parsing failure). */
export function isHttpError(error: unknown): error is FetchBaseQueryError & { status: number } {
  return typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number';
}

/** The `message` field the server put in its error body, if any. */
export function serverMessage(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const data = (error as { data: unknown }).data;
  if (typeof data === 'object' && data !== null && 'message' in data) {
    const message = (data as { message: unknown }).message;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return undefined;
}

/** The `code` field the server put in its error body (the services' `AppError` code), if any. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const data = (error as { data: unknown }).data;
  return typeof data === 'object' && data !== null && 'code' in data && typeof data.code === 'string'
    ? data.code
    : undefined;
}

/** Action failures show the server's message field, else the screen's own text (SPEC §8). */
export function errorMessage(
  error: FetchBaseQueryError | SerializedError | unknown,
  fallback: string,
): string {
  return serverMessage(error) ?? fallback;
}

/**
 * True when the failure is a 401 to a call made with the admin's token: the API layer has already
 * signed the admin out (SPEC §4), so the failed action has no one left to tell.
 */
export function endedSession(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'sessionEnded' in error && error.sessionEnded === true
  );
}

import { notFound } from '@readiness/kit/errors';
import { INVALID_INVITATION_MESSAGE } from '../students';

/* What a student's link and an attempt id they send name. */

export const invalidLink = () => notFound(INVALID_INVITATION_MESSAGE, 'not_found');

/** An invitation that expired before it was ever started: its link opens nothing. */
export const expiredUnstarted = (s: { status: string; expiresAt: Date }, now = Date.now()) =>
  s.status === 'invited' && s.expiresAt.getTime() <= now;

/** A student answers 404 alike when the link is unknown, deleted or expired before it was ever started. */
export function usable<S extends { status: string; expiresAt: Date }>(
  student: S | undefined,
  now = Date.now(),
): S {
  if (!student || expiredUnstarted(student, now)) throw invalidLink();
  return student;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An attempt id as the database can look it up, or null for anything else (which then matches no attempt). */
export const attemptIdOrNull = (id: string | undefined) => (id !== undefined && UUID.test(id) ? id : null);

/*
 * The server owns the clock (DESIGN §7): the offset, the time left and the countdown's format are the app's
 * (`lib/clock`, the Live screen counts down with them too); what the student's timer says is here.
 */
export { clockOffset, formatCountdown, timeLeft } from '../../lib/clock';

/** The minutes left at which the timer speaks to screen readers; never every second. */
export const ANNOUNCE_AT_MINUTES = [10, 5, 1] as const;

/**
 * The announcement due when the time left went from `before` to `after` (milliseconds): the mark
 * crossed in between, if any. A page opened with 7 minutes left does not announce 10 after the fact.
 */
export function crossedMark(before: number, after: number): number | null {
  const crossed = ANNOUNCE_AT_MINUTES.filter((m) => before > m * 60_000 && after <= m * 60_000);
  return crossed.length > 0 ? Math.min(...crossed) : null;
}

/** A moment of this device (now unless given) as the server's clock reads it, in ISO form. */
export const serverTime = (offset: number, local = Date.now()): string =>
  new Date(local + offset).toISOString();

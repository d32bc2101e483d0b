import type { AttemptRecord } from '../../data-access/attempt-records';

/* An attempt's time: what it is given, when it closes, what is left and what was spent. */

/** The time an attempt gets: the version's limit plus the student's extra time, in whole seconds. */
export const attemptSeconds = (timeLimitMinutes: number, extraTimePercent: number) =>
  Math.round(timeLimitMinutes * 60 * (1 + extraTimePercent / 100));

/** The moment after which a submit no longer counts whole: the deadline plus the grace. */
export const closedAt = (a: AttemptRecord, graceSeconds: number) =>
  a.deadlineAt.getTime() + graceSeconds * 1000;
export const isOpen = (a: AttemptRecord, now: Date, graceSeconds: number) =>
  a.status === 'in_progress' && now.getTime() <= closedAt(a, graceSeconds);

/** Whole seconds left before the deadline, never below 0. */
export const secondsLeft = (deadlineAt: Date, now: Date) =>
  Math.max(0, Math.floor((deadlineAt.getTime() - now.getTime()) / 1000));

/** Whole minutes spent on an attempt ended at `now`: the time after its deadline is not counted. */
export function minutesSpent(a: { startedAt: Date; deadlineAt: Date }, now: Date): number {
  const end = Math.min(now.getTime(), a.deadlineAt.getTime());
  return Math.max(0, Math.floor((end - a.startedAt.getTime()) / 60_000));
}

/*
 * Data retention: students whose last activity is older than N months are erased, when a super admin switched it on
 * (off by default). The rules on their own, with the clock passed in.
 */

/** The bounds of N, in months. */
export const RETENTION_MONTHS = { min: 1, max: 120 } as const;

/** The setting: on or off, and N. */
export interface RetentionPolicy {
  enabled: boolean;
  months: number;
}

/** Retention as it is before any super admin saved it: off (N is what the screen offers first). */
export const RETENTION_OFF: RetentionPolicy = { enabled: false, months: 24 };

/**
 * The moment before which a student's last activity must lie to be erased at `now`: `months` calendar months before
 * it, in UTC, the day kept where the month has it and else its last day (31 March less one month: 28 February), as
 * PostgreSQL's intervals count.
 */
export function retentionCutoff(months: number, now: Date): Date {
  const total = now.getUTCFullYear() * 12 + now.getUTCMonth() - months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(year, month, Math.min(now.getUTCDate(), lastDay));
  return cutoff;
}

/**
 * Whether saving `next` over `current` can erase someone who was not due before, so the super admin must confirm
 * the dry run's count: switching retention on, or shortening N while it is on. Switching it off, or lengthening N,
 * erases nobody more.
 */
export const needsConfirmation = (current: RetentionPolicy, next: RetentionPolicy) =>
  next.enabled && (!current.enabled || next.months < current.months);

/*
 * Who is reminded, and when: the reminder rules on their own, with the clock passed in. The reminder job and an
 * administrator's "Send a reminder now" both keep to them; the database's conditional write keeps the same
 * once-a-day guard when two of them reach one student at once.
 */

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The installation's reminder settings (REMINDER_* in the config). */
export interface ReminderSchedule {
  /** Days after the invitation was sent (or last resent) at which a reminder is due: [3, 7] by default. */
  afterDays: readonly number[];
  /** Hours before the link expires at which one more is due (24 by default; 0: none). */
  beforeExpiryHours: number;
  /** The most reminders the job sends one student, administrators' included (0: the job sends none). */
  max: number;
}

/** Why a reminder goes out. */
export type ReminderTrigger = 'after-invitation' | 'before-expiry' | 'admin';

/** What the rules read of a student. */
export interface ReminderFacts {
  status: 'invited' | 'started' | 'completed';
  invitedAt: Date;
  expiresAt: Date;
  reminderCount: number;
  lastRemindedAt: Date | null;
}

/** The start of `now`'s day in UTC: "once a day" means once between two UTC midnights. */
export const utcDayStart = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/** Reminded already on `now`'s UTC day. */
export const remindedToday = (s: Pick<ReminderFacts, 'lastRemindedAt'>, now: Date) =>
  s.lastRemindedAt !== null && s.lastRemindedAt.getTime() >= utcDayStart(now).getTime();

/**
 * Why an administrator's reminder cannot go to this student now, or undefined when it can: a student who started
 * (or finished) needs none, an expired link would open nothing (resend the invitation instead), and one reminder a
 * day is the most anyone gets. The maximum is the job's: an administrator may go beyond it.
 */
export function adminReminderRefusal(
  s: ReminderFacts,
  now: Date,
): 'started' | 'expired' | 'reminded-today' | undefined {
  if (s.status !== 'invited') return 'started';
  if (s.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (remindedToday(s, now)) return 'reminded-today';
  return undefined;
}

/**
 * The reminder the job owes this student at `now`, or undefined. One is due when a moment of the schedule (each of
 * `afterDays` after the invitation, and `beforeExpiryHours` before the link expires) has passed since the last
 * reminder (or since the invitation, for the first), the student has not started, the link is open, fewer than
 * `max` reminders were sent and none today. Moments that passed while the job was not running are owed one
 * reminder together, never one each.
 */
export function dueReminder(
  s: ReminderFacts,
  schedule: ReminderSchedule,
  now: Date,
): ReminderTrigger | undefined {
  if (adminReminderRefusal(s, now) !== undefined || s.reminderCount >= schedule.max) return undefined;
  const at = now.getTime();
  const invited = s.invitedAt.getTime();
  const since = Math.max(invited, s.lastRemindedAt?.getTime() ?? -Infinity);
  const passed = (moment: number) => moment > since && moment <= at;
  if (
    schedule.beforeExpiryHours > 0 &&
    passed(s.expiresAt.getTime() - schedule.beforeExpiryHours * HOUR_MS)
  ) {
    return 'before-expiry';
  }
  return schedule.afterDays.some((days) => passed(invited + days * DAY_MS)) ? 'after-invitation' : undefined;
}

/**
 * Who can be owed a reminder at `now` at all, for the job's query: students invited at least the first of
 * `afterDays` ago, or whose link expires within `beforeExpiryHours` (null: nobody by that rule).
 */
export function scheduleWindow(
  schedule: ReminderSchedule,
  now: Date,
): { invitedBefore: Date | null; expiringBefore: Date | null } {
  const first = schedule.afterDays.length ? Math.min(...schedule.afterDays) : undefined;
  return {
    invitedBefore: first === undefined ? null : new Date(now.getTime() - first * DAY_MS),
    expiringBefore:
      schedule.beforeExpiryHours > 0 ? new Date(now.getTime() + schedule.beforeExpiryHours * HOUR_MS) : null,
  };
}

import { newAttemptRecord, type AttemptRecord } from '../../data-access/attempt-records';
import { IDLE_AFTER_MS, PAGE_GONE_AFTER_MS, presenceOf } from './live-attempts';
import { attemptSeconds, closedAt, isOpen, minutesSpent, secondsLeft } from './attempt-time';
import { expiredUnstarted, usable } from './invitation-link';

const T0 = new Date('2026-03-02T09:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const MINUTE = 60;

/** An attempt started at T0 with a 30-minute deadline, as the database keeps a new one. */
const attempt = (rest: Partial<AttemptRecord> = {}): AttemptRecord => ({
  ...newAttemptRecord({
    id: '6f1c1f0e-8d7b-4a57-9a43-0d6c1b0f7a11',
    studentId: 's',
    attemptNumber: 1,
    versionId: 'v',
    startedAt: T0,
    deadlineAt: at(30 * MINUTE),
    paper: null,
    language: null,
  }),
  ...rest,
});

describe('the time rules of an attempt', () => {
  it.each([
    [30, 0, 1800],
    [30, 25, 2250],
    [30, 50, 2700],
    [30, 100, 3600],
    [45, 10, 2970],
    // 7 minutes and a third of 7 is 9 min 20 s: whole seconds.
    [7, 33, 559],
    [1, 0, 60],
  ])(
    'when the time limit is %i minutes and the extra time %i %%, then the attempt gets %i seconds',
    (minutes, extra, seconds) => {
      expect(attemptSeconds(minutes, extra)).toBe(seconds);
    },
  );

  it.each<[string, Partial<AttemptRecord>, number, boolean]>([
    ['in progress before its deadline', {}, 29 * MINUTE, true],
    ['in progress at its deadline', {}, 30 * MINUTE, true],
    ['in progress past its deadline but within the grace', {}, 30 * MINUTE + 15, true],
    ['in progress at the end of the grace', {}, 30 * MINUTE + 30, true],
    ['in progress one second after the grace', {}, 30 * MINUTE + 31, false],
    ['submitted before its deadline', { status: 'submitted' }, 10 * MINUTE, false],
    ['given more time, past its first deadline', { deadlineAt: at(40 * MINUTE) }, 35 * MINUTE, true],
  ])('when an attempt is %s (30 s of grace), then it is open: %s', (_what, rest, second, open) => {
    expect(isOpen(attempt(rest), at(second), 30)).toBe(open);
  });

  it.each([
    [0, 30 * MINUTE],
    [30, 30 * MINUTE + 30],
  ])('when the grace is %i s, then the attempt closes %i s after its start', (grace, second) => {
    expect(closedAt(attempt(), grace)).toBe(at(second).getTime());
  });

  it.each<[string, string, number, boolean]>([
    ['an invitation never started, before it expires', 'invited', -1, false],
    ['an invitation never started, the moment it expires', 'invited', 0, true],
    ['an invitation never started, after it expired', 'invited', 1, true],
    ['an invitation started, after it expired', 'in_progress', 1, false],
    ['a student completed, after the invitation expired', 'completed', 1, false],
  ])('when %s, then its link is dead: %s', (_what, status, afterExpiry, dead) => {
    const expiresAt = at(0);
    const now = at(afterExpiry).getTime();
    expect(expiredUnstarted({ status, expiresAt }, now)).toBe(dead);
    if (dead) expect(() => usable({ status, expiresAt }, now)).toThrow('Invalid or expired invitation link');
    else expect(usable({ status, expiresAt }, now)).toEqual({ status, expiresAt });
  });

  it('when there is no student for the link, then it answers as a dead link', () => {
    expect(() => usable(undefined)).toThrow('Invalid or expired invitation link');
  });

  it.each([
    ['ten minutes before the deadline', 20 * MINUTE, 600],
    ['half a second before the deadline (whole seconds, rounded down)', 30 * MINUTE - 0.5, 0],
    ['1.5 s before the deadline', 30 * MINUTE - 1.5, 1],
    ['at the deadline', 30 * MINUTE, 0],
    ['past the deadline (never below 0)', 31 * MINUTE, 0],
  ])('when it is %s, then the time left is %i s', (_what, second, left) => {
    expect(secondsLeft(attempt().deadlineAt, at(second))).toBe(left);
  });

  it.each([
    ['ends at once', 0, 0],
    ['ends after 12 min 59 s (whole minutes, rounded down)', 12 * MINUTE + 59, 12],
    ['ends at its deadline', 30 * MINUTE, 30],
    ['ends late (time after the deadline is not counted)', 45 * MINUTE, 30],
    ['ends before its start by the clock (never below 0)', -MINUTE, 0],
  ])('when an attempt %s, then it took %i minutes', (_what, second, minutes) => {
    expect(minutesSpent(attempt(), at(second))).toBe(minutes);
  });

  const GONE = PAGE_GONE_AFTER_MS / 1000;
  const IDLE = IDLE_AFTER_MS / 1000;
  it.each<[string, string, number, { savedAt?: number; pageSeenAt?: number }, number]>([
    ['just started', 'active', 0, {}, 10],
    ['saved a minute ago', 'active', 1, { savedAt: 60 }, 120],
    ['not saved since the start, the page open', 'idle', 2, { pageSeenAt: IDLE }, IDLE],
    ['not saved for 5 minutes, the page heard just now', 'idle', 5, { savedAt: 60, pageSeenAt: 359 }, 360],
    ['been heard of exactly as long ago as a page counts as gone', 'active', 1, { pageSeenAt: 0 }, GONE],
    ['not been heard of for longer than that', 'offline', 1, { savedAt: 0 }, GONE + 1],
    [
      'saved a while ago and the page is gone',
      'offline',
      1,
      { savedAt: 60, pageSeenAt: 100 },
      100 + GONE + 1,
    ],
  ])(
    'when a student has %s, then they are shown as %s, idle %i min',
    (_what, presence, idle, heard, second) => {
      const row = {
        startedAt: T0,
        savedAt: heard.savedAt === undefined ? null : at(heard.savedAt),
        pageSeenAt: heard.pageSeenAt === undefined ? null : at(heard.pageSeenAt),
      };
      expect(presenceOf(row, at(second))).toEqual({ presence, idleMinutes: idle });
    },
  );
});

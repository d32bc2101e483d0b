import {
  adminReminderRefusal,
  dueReminder,
  scheduleWindow,
  utcDayStart,
  type ReminderFacts,
} from './schedule';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const invitedAt = new Date('2027-03-01T09:00:00Z');
const at = (ms: number) => new Date(invitedAt.getTime() + ms);
const schedule = { afterDays: [3, 7], beforeExpiryHours: 24, max: 3 };

const student = (over: Partial<ReminderFacts> = {}): ReminderFacts => ({
  status: 'invited',
  invitedAt,
  expiresAt: at(60 * DAY),
  reminderCount: 0,
  lastRemindedAt: null,
  ...over,
});

describe('dueReminder', () => {
  test.each([
    ['just invited', student(), at(1 * HOUR), undefined],
    ['a minute before the third day', student(), at(3 * DAY - 60_000), undefined],
    ['on the third day', student(), at(3 * DAY), 'after-invitation'],
    ['on the fifth day, never reminded (the job was down)', student(), at(5 * DAY), 'after-invitation'],
    [
      'on the fifth day, reminded on the third',
      student({ reminderCount: 1, lastRemindedAt: at(3 * DAY + HOUR) }),
      at(5 * DAY),
      undefined,
    ],
    [
      'on the seventh day, reminded on the third',
      student({ reminderCount: 1, lastRemindedAt: at(3 * DAY + HOUR) }),
      at(7 * DAY),
      'after-invitation',
    ],
    [
      'on the eighth day, reminded on the third and seventh',
      student({ reminderCount: 2, lastRemindedAt: at(7 * DAY) }),
      at(8 * DAY),
      undefined,
    ],
    [
      '24 h before the link expires',
      student({ reminderCount: 2, lastRemindedAt: at(7 * DAY) }),
      at(59 * DAY),
      'before-expiry',
    ],
    ['an hour before it expires, never reminded', student(), at(60 * DAY - HOUR), 'before-expiry'],
    ['the link has expired', student(), at(60 * DAY), undefined],
    [
      'the maximum reached',
      student({ reminderCount: 3, lastRemindedAt: at(7 * DAY) }),
      at(59 * DAY),
      undefined,
    ],
    [
      'reminded earlier the same UTC day (an administrator)',
      student({ reminderCount: 1, lastRemindedAt: new Date('2027-03-04T00:30:00Z') }),
      new Date('2027-03-04T23:59:00Z'),
      undefined,
    ],
    ['started', student({ status: 'started' }), at(3 * DAY), undefined],
    ['completed', student({ status: 'completed' }), at(59 * DAY), undefined],
    [
      'resent on the second day: the days count from the resend',
      student({ invitedAt: at(2 * DAY), expiresAt: at(62 * DAY) }),
      at(4 * DAY),
      undefined,
    ],
    [
      'reminded before a resend, three days after it',
      student({
        invitedAt: at(10 * DAY),
        expiresAt: at(70 * DAY),
        reminderCount: 1,
        lastRemindedAt: at(3 * DAY),
      }),
      at(13 * DAY),
      'after-invitation',
    ],
    [
      'a link valid for less than a day: no reminder before the invitation itself',
      student({ expiresAt: at(12 * HOUR) }),
      at(HOUR),
      undefined,
    ],
  ] as const)('%s', (_, s, now, expected) => {
    expect(dueReminder(s, schedule, now)).toBe(expected);
  });

  test('with no days, no expiry reminder or a maximum of 0, the job reminds nobody', () => {
    expect(dueReminder(student(), { ...schedule, afterDays: [] }, at(5 * DAY))).toBeUndefined();
    expect(
      dueReminder(student(), { afterDays: [], beforeExpiryHours: 0, max: 3 }, at(60 * DAY - HOUR)),
    ).toBeUndefined();
    expect(dueReminder(student(), { ...schedule, max: 0 }, at(5 * DAY))).toBeUndefined();
  });
});

describe('adminReminderRefusal', () => {
  test.each([
    ['an invited student', student(), at(HOUR), undefined],
    ['at the maximum: an administrator may go beyond it', student({ reminderCount: 3 }), at(HOUR), undefined],
    ['reminded yesterday', student({ lastRemindedAt: at(-10 * HOUR) }), at(HOUR), undefined],
    ['reminded today', student({ lastRemindedAt: at(0) }), at(HOUR), 'reminded-today'],
    ['started', student({ status: 'started' }), at(HOUR), 'started'],
    ['completed', student({ status: 'completed' }), at(HOUR), 'started'],
    ['expired', student({ expiresAt: at(0) }), at(HOUR), 'expired'],
  ] as const)('%s', (_, s, now, expected) => {
    expect(adminReminderRefusal(s, now)).toBe(expected);
  });

  test('a day is a UTC day', () => {
    expect(utcDayStart(new Date('2027-03-04T23:59:59.999Z')).toISOString()).toBe('2027-03-04T00:00:00.000Z');
  });
});

describe('scheduleWindow', () => {
  test('whoever is due by dueReminder is inside the window the job reads', () => {
    const now = at(5 * DAY);
    const window = scheduleWindow(schedule, now);
    expect(window).toEqual({ invitedBefore: at(2 * DAY), expiringBefore: at(6 * DAY) });
    expect(scheduleWindow({ afterDays: [], beforeExpiryHours: 0, max: 3 }, now)).toEqual({
      invitedBefore: null,
      expiringBefore: null,
    });
  });
});

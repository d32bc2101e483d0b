import { needsConfirmation, retentionCutoff } from './rules';

describe('retentionCutoff', () => {
  test.each([
    ['12 months before mid-month', 12, '2027-06-15T10:30:00.000Z', '2026-06-15T10:30:00.000Z'],
    ['across the year', 3, '2027-02-10T00:00:00.000Z', '2026-11-10T00:00:00.000Z'],
    [
      '31 March less one month: the last day of February',
      1,
      '2027-03-31T08:00:00.000Z',
      '2027-02-28T08:00:00.000Z',
    ],
    ['into a leap February', 1, '2028-03-30T08:00:00.000Z', '2028-02-29T08:00:00.000Z'],
    ['120 months', 120, '2027-01-01T00:00:00.000Z', '2017-01-01T00:00:00.000Z'],
  ])('%s', (_, months, now, expected) => {
    expect(retentionCutoff(months, new Date(now)).toISOString()).toBe(expected);
  });
});

describe('needsConfirmation', () => {
  const off = { enabled: false, months: 12 };
  const on = { enabled: true, months: 12 };
  test.each([
    ['switching on', off, on, true],
    ['shortening while on', on, { enabled: true, months: 6 }, true],
    ['lengthening while on', on, { enabled: true, months: 24 }, false],
    ['saving the same', on, on, false],
    ['switching off', on, off, false],
    ['changing N while off', off, { enabled: false, months: 1 }, false],
  ])('%s', (_, current, next, expected) => {
    expect(needsConfirmation(current, next)).toBe(expected);
  });
});

import { place } from '.';
import { underPressure } from './pressure';

describe('a ticket’s place', () => {
  test.each([
    // ticket, serving, per second → ahead, estimate (seconds)
    [5012, 4700, 196 / 60, 311, 96],
    [4701, 4700.5, 1, 0, 1],
    [10, 9, 0.5, 0, 2],
    [10, 12, 1, 0, 1],
    [10, 0, 0, 9, null],
  ])(
    'ticket %d with %d served at %d a second: %d ahead, about %s s',
    (ticket, serving, perSecond, ahead, estimate) => {
      expect(place(ticket, { serving, perSecond, waiting: 0 })).toEqual({ ahead, estimateSeconds: estimate });
    },
  );
});

describe('a replica’s pressure', () => {
  const limits = { lagMs: 200, callMs: 250 };
  test.each([
    [{ lagMs: 20, poolWaitShare: 0, callP90Ms: null }, false],
    [{ lagMs: 200, poolWaitShare: 0.49, callP90Ms: 250 }, false],
    [{ lagMs: 201, poolWaitShare: 0, callP90Ms: null }, true],
    [{ lagMs: 10, poolWaitShare: 0.5, callP90Ms: 20 }, true],
    [{ lagMs: 10, poolWaitShare: 0, callP90Ms: 251 }, true],
  ])('%j is pressure: %s', (reading, pressed) => {
    expect(underPressure(reading, limits)).toBe(pressed);
  });
});

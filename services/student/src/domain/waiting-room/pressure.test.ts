import { holdTheEventLoop } from '@readiness/testing';
import { headroom, pressureGauge } from './pressure';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Holds the event loop, as a burst of work does. */
const block = holdTheEventLoop;

const limits = { lagMs: 200, callMs: 250 };
const calm = { lagMs: 20, poolWaitShare: 0, callP90Ms: 40 };

test('when a replica nears its limits, then it reports warm at half of any of them, pressure over any, cool below all', () => {
  expect(headroom(calm, limits)).toBe('cool');
  expect(headroom({ ...calm, callP90Ms: null }, limits)).toBe('cool');
  // Half of each limit, one at a time: warm.
  expect(headroom({ ...calm, lagMs: 101 }, limits)).toBe('warm');
  expect(headroom({ ...calm, callP90Ms: 126 }, limits)).toBe('warm');
  expect(headroom({ ...calm, poolWaitShare: 0.25 }, limits)).toBe('warm');
  // Exactly half is not yet warm (the limits themselves are "above").
  expect(headroom({ ...calm, lagMs: 100, callP90Ms: 125, poolWaitShare: 0.2 }, limits)).toBe('cool');
  // Over any limit: pressure, whatever the others say.
  expect(headroom({ ...calm, lagMs: 201 }, limits)).toBe('pressure');
  expect(headroom({ ...calm, callP90Ms: 251 }, limits)).toBe('pressure');
  expect(headroom({ ...calm, poolWaitShare: 0.5 }, limits)).toBe('pressure');
});

test('when the loop is held, then the gauge reads the delay alone, not the interval between its samples, and a resting gauge wakes with the next look', async () => {
  const gauge = pressureGauge(() => 0);
  try {
    gauge.look();
    await sleep(600);
    // Idle: the samples come a tenth of a second apart, which is no delay (a replica at rest reads cool).
    const idle = gauge.look();
    expect(idle.lagMs).toBeLessThan(50);
    expect(headroom(idle, limits)).toBe('cool');
    // Looked at right after the stall, before the sample it held up has fired: counted all the same.
    block(400);
    const held = gauge.look();
    expect(held.lagMs).toBeGreaterThan(250);
    expect(headroom(held, limits)).toBe('pressure');
    // At rest nothing is sampled; the next look starts afresh and a held loop shows again.
    gauge.rest();
    await sleep(300);
    expect(gauge.look().lagMs).toBe(0);
    block(400);
    await sleep(250);
    expect(gauge.look().lagMs).toBeGreaterThan(250);
  } finally {
    gauge.rest();
  }
});

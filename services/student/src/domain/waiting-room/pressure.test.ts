import { headroom } from './pressure';

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

import { eventLoopDelays, nearestRank } from '@readiness/kit/metrics';

/**
 * What a replica counts as pressure: its event loop late, its database connections all taken, or the calls of the
 * students already taking the test (autosaves, submits) slow.
 */
export interface PressureLimits {
  /** The event loop's delay (99th percentile over the last look) above which the replica is under pressure. */
  lagMs: number;
  /** The students' calls' time (90th percentile over the last look, from 5 calls) above which it is. */
  callMs: number;
}

/** One look's readings. */
export interface PressureReading {
  lagMs: number;
  /** The share of samples since the last look at which callers waited for a database connection. */
  poolWaitShare: number;
  /** The 90th percentile of the students' calls since the last look; null under 5 calls. */
  callP90Ms: number | null;
}

/** Calls fewer than this since the last look say nothing of their time. */
const CALLS_TO_JUDGE = 5;

/** The rule: late, callers waiting for a connection at half the samples or more, or the students' calls slow. */
export const underPressure = (r: PressureReading, limits: PressureLimits) =>
  r.lagMs > limits.lagMs || r.poolWaitShare >= 0.5 || (r.callP90Ms !== null && r.callP90Ms > limits.callMs);

/**
 * How near its limits a replica is: `pressure` over them; `warm` at half of any of them or more (callers waiting for
 * a connection at a quarter of the samples), where the line lets a student in only as another finishes; `cool` below.
 * The warm band is the line's early warning: the students it let in make their load 10–20 s later.
 */
export function headroom(r: PressureReading, limits: PressureLimits): 'pressure' | 'warm' | 'cool' {
  if (underPressure(r, limits)) return 'pressure';
  const half = { lagMs: limits.lagMs / 2, callMs: limits.callMs / 2 };
  const warm =
    r.lagMs > half.lagMs || r.poolWaitShare >= 0.25 || (r.callP90Ms !== null && r.callP90Ms > half.callMs);
  return warm ? 'warm' : 'cool';
}

/**
 * The replica's pressure, measured: the event loop's delay and the database pool's waiting callers, sampled at each
 * arrival and each look. `look` returns the readings since the last look. While nobody arrives the replica `rest`s:
 * the loop is not sampled (each sample wakes the process), and the next arrival or look samples it again.
 */
export function pressureGauge(waitingForConnection: () => number) {
  const loop = eventLoopDelays();
  loop.start();
  let samples = 0;
  let waited = 0;
  let calls: number[] = [];
  return {
    sample() {
      loop.start();
      samples += 1;
      if (waitingForConnection() > 0) waited += 1;
    },
    /** A student's call (autosave, submit) took `ms`. */
    served(ms: number) {
      if (calls.length < 10_000) calls.push(ms);
    },
    look(): PressureReading {
      this.sample();
      calls.sort((a, b) => a - b);
      const reading = {
        // Just woken from rest, its only sample is not due yet: no delay seen.
        lagMs: loop.take(),
        poolWaitShare: waited / samples,
        callP90Ms: calls.length >= CALLS_TO_JUDGE ? nearestRank(calls, 90)! : null,
      };
      samples = 0;
      waited = 0;
      calls = [];
      return reading;
    },
    /** Nobody arrives (or the service stops): the loop's sampling stops until the next `sample` or `look`. */
    rest: () => loop.stop(),
  };
}

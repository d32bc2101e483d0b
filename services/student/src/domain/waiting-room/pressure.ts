import { performance } from 'node:perf_hooks';
import { EVENT_LOOP_SAMPLE_MS } from '@readiness/kit/metrics';

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
 * The event loop's delay: a timer due every `EVENT_LOOP_SAMPLE_MS` notes how late it fires. `take` gives the 99th
 * percentile of the delays since the last take, counting a sample that is due and has not fired yet (a look right
 * after a stall, before the timers run), so no stall falls between two looks.
 */
function loopDelays() {
  let timer: NodeJS.Timeout | undefined;
  let due = 0;
  let delays: number[] = [];
  const arm = (now: number) => {
    due = now + EVENT_LOOP_SAMPLE_MS;
    timer = setTimeout(tick, EVENT_LOOP_SAMPLE_MS).unref();
  };
  function tick() {
    const now = performance.now();
    if (delays.length < 10_000) delays.push(Math.max(0, now - due));
    arm(now);
  }
  return {
    running: () => timer !== undefined,
    start() {
      if (!timer) arm(performance.now());
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
      delays = [];
    },
    take(): number {
      const taken = timer ? [...delays, Math.max(0, performance.now() - due)] : delays;
      delays = [];
      taken.sort((a, b) => a - b);
      return taken.length ? taken[Math.ceil(taken.length * 0.99) - 1]! : 0;
    },
  };
}

/**
 * The replica's pressure, measured: the event loop's delay and the database pool's waiting callers, sampled at each
 * arrival and each look. `look` returns the readings since the last look. While nobody arrives the replica `rest`s:
 * the loop is not sampled (each sample wakes the process), and the next arrival or look samples it again.
 */
export function pressureGauge(waitingForConnection: () => number) {
  const loop = loopDelays();
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
      const woken = !loop.running();
      this.sample();
      calls.sort((a, b) => a - b);
      const reading = {
        // Just woken, the loop has no samples yet: no delay seen.
        lagMs: woken ? 0 : loop.take(),
        poolWaitShare: waited / samples,
        callP90Ms: calls.length >= CALLS_TO_JUDGE ? calls[Math.ceil(calls.length * 0.9) - 1]! : null,
      };
      samples = 0;
      waited = 0;
      calls = [];
      return reading;
    },
    /** Nobody arrives: the loop's sampling stops until the next `sample` or `look`. */
    rest: () => loop.stop(),
    stop: () => loop.stop(),
  };
}

import { monitorEventLoopDelay } from 'node:perf_hooks';

/** What a replica counts as pressure: its event loop late, its database connections all taken. */
export interface PressureLimits {
  /** The event loop's delay (99th percentile over the last look) above which the replica is under pressure. */
  lagMs: number;
}

/** One look's readings. */
export interface PressureReading {
  lagMs: number;
  /** The share of samples since the last look at which callers waited for a database connection. */
  poolWaitShare: number;
}

/** The rule: late by more than the limit, or callers waiting for a connection at half the samples or more. */
export const underPressure = (r: PressureReading, limits: PressureLimits) =>
  r.lagMs > limits.lagMs || r.poolWaitShare >= 0.5;

/**
 * The replica's pressure, measured: the event loop's delay (Node's histogram, 20 ms resolution) and the database
 * pool's waiting callers, sampled at each arrival and each look. `look` returns the readings since the last look.
 */
export function pressureGauge(waitingForConnection: () => number) {
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  let samples = 0;
  let waited = 0;
  return {
    sample() {
      samples += 1;
      if (waitingForConnection() > 0) waited += 1;
    },
    look(): PressureReading {
      this.sample();
      const reading = { lagMs: loop.percentile(99) / 1e6, poolWaitShare: waited / samples };
      loop.reset();
      samples = 0;
      waited = 0;
      return reading;
    },
    stop: () => loop.disable(),
  };
}

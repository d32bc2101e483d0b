import client from 'prom-client';
import { performance } from 'node:perf_hooks';

/**
 * How often Node's event-loop delay is sampled, for `nodejs_eventloop_lag_*` and the waiting room's pressure: a stall
 * of this long or longer is always seen. prom-client's default, 10 ms, woke every process 100 times a second, idle or
 * not: about 9 ms of CPU a second per process on the 2-core machine, most of an idle service's cost
 * (docs/benchmarks.md, "An idle product").
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/** The gauges prom-client sets from Node's event-loop delay histogram at each scrape. */
const HISTOGRAM_LAGS = ['min', 'max', 'mean', 'p50', 'p90', 'p99'].map(
  (s) => `nodejs_eventloop_lag_${s}_seconds`,
);

/**
 * Node's own metrics on `registry` (memory, CPU, handles, GC, event loop), sampling the event loop every
 * `EVENT_LOOP_SAMPLE_MS`. Node's histogram records the time between two samples, so each delay it holds counts the
 * interval too: the gauges drawn from it report the delay alone, as a 10 ms interval's gauges nearly did.
 */
export function collectProcessMetrics(registry: client.Registry): void {
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  for (const name of HISTOGRAM_LAGS) {
    const gauge = registry.getSingleMetric(name) as client.Gauge | undefined;
    if (!gauge) continue;
    const set = gauge.set.bind(gauge) as (labels: client.LabelValues<string>, value: number) => void;
    gauge.set = ((labels: client.LabelValues<string>, value: number) =>
      set(labels, Math.max(0, value - EVENT_LOOP_SAMPLE_MS / 1000))) as typeof gauge.set;
  }
}

/** The `p`th percentile (0–100) of values sorted ascending, by nearest rank; undefined when there are none. */
export const nearestRank = (sorted: readonly number[], p: number): number | undefined =>
  sorted.length ? sorted[Math.max(0, Math.ceil((sorted.length * p) / 100) - 1)] : undefined;

/**
 * The event loop's delay, for a decision taken in the process (the waiting room's pressure): a timer due every
 * `EVENT_LOOP_SAMPLE_MS` notes how late it fires. `take` gives the 99th percentile of the delays since the last take,
 * counting a sample that is due and has not fired yet (a look right after a stall, before the timers run), so no
 * stall falls between two takes. `stop` ends the sampling (each sample wakes the process) until the next `start`.
 */
export function eventLoopDelays() {
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
    start() {
      if (!timer) arm(performance.now());
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
      delays = [];
    },
    /** Milliseconds; 0 when nothing was sampled. */
    take(): number {
      const taken = timer ? [...delays, Math.max(0, performance.now() - due)] : delays;
      delays = [];
      return (
        nearestRank(
          taken.sort((a, b) => a - b),
          99,
        ) ?? 0
      );
    },
  };
}

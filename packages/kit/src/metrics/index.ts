import client from 'prom-client';

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

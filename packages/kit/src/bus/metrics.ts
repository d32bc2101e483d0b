import { Counter, type Registry } from 'prom-client';

export type DeadLetterReason = 'malformed' | 'attempts_exhausted' | 'wait_expired';

export interface BusMetrics {
  published(event: string): void;
  consumed(queue: string, event: string): void;
  retried(queue: string, event: string): void;
  deadLettered(queue: string, event: string, reason: DeadLetterReason): void;
}

function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: L[],
): Counter<L> {
  // Several buses may share a registry (tests, the all-in-one process): reuse what is registered.
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames, registers: [registry] });
}

/** Counters a dashboard alerts on; a poison message shows up in `bus_dead_lettered_total`. */
export function busMetrics(registry?: Registry): BusMetrics {
  if (!registry) return { published() {}, consumed() {}, retried() {}, deadLettered() {} };
  const published = counter(registry, 'bus_published_total', 'Events confirmed by the bus', ['event']);
  const consumed = counter(registry, 'bus_consumed_total', 'Events handled and acknowledged', [
    'queue',
    'event',
  ]);
  const retried = counter(registry, 'bus_retried_total', 'Failed deliveries scheduled for a retry', [
    'queue',
    'event',
  ]);
  const dead = counter(registry, 'bus_dead_lettered_total', 'Messages moved to a dead-letter queue', [
    'queue',
    'event',
    'reason',
  ]);
  return {
    published: (event) => published.inc({ event }),
    consumed: (queue, event) => consumed.inc({ queue, event }),
    retried: (queue, event) => retried.inc({ queue, event }),
    deadLettered: (queue, event, reason) => dead.inc({ queue, event, reason }),
  };
}

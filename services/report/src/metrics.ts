import { Gauge, type Registry } from 'prom-client';

interface Backlog {
  count: number;
  oldestSeconds: number;
}

/**
 * The certificates still to issue, read when Prometheus scrapes (one statement a scrape): how many, and how long
 * the oldest has waited since its result. A backlog that grows while results come in means the renderer, the
 * object store or the database is not keeping up (docs/operations.md, ReadinessCertificateBacklog).
 */
export function certificateBacklogMetrics(registry: Registry, backlog: () => Promise<Backlog>) {
  let reading: Promise<Backlog | undefined> | undefined;
  // Both gauges of one scrape share one read; a database that is down leaves the last values.
  const read = () =>
    (reading ??= backlog()
      .catch(() => undefined)
      .finally(() => setImmediate(() => (reading = undefined))));
  const gauges: Array<[string, string, (b: Backlog) => number]> = [
    ['certificates_pending', 'Certificates of passed results not yet issued', (b) => b.count],
    [
      'certificates_oldest_pending_seconds',
      'How long the oldest certificate not yet issued has waited since its result',
      (b) => b.oldestSeconds,
    ],
  ];
  for (const [name, help, pick] of gauges) {
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const now = await read();
        if (now) this.set(pick(now));
      },
    });
  }
}

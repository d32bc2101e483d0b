import { Counter, Gauge, type Registry } from 'prom-client';
import type { Logger } from '../logger';

/** Work a service repeats on a timer (the student service's deadline sweep), run by the runtime's lifecycle. */
export interface PeriodicJob {
  name: string;
  /** Pause between the end of one run and the start of the next. */
  intervalMs: number;
  /** One pass; a throw is logged and the next pass runs on time. Make it safe for several replicas at once. */
  run(): Promise<unknown>;
}

/** Declares a periodic job (an identity function that names the parts). */
export const every = (name: string, intervalMs: number, run: () => Promise<unknown>): PeriodicJob => ({
  name,
  intervalMs,
  run,
});

/**
 * Runs jobs one pass at a time each, never overlapping with itself. `stop` wakes the sleepers and waits for the
 * passes in flight, so a shutdown never cuts a pass off from its database.
 */
export function startJobs(
  jobs: readonly PeriodicJob[],
  logger: Logger,
  registry?: Registry,
): { stop(): Promise<void> } {
  let stopping = false;
  // A job that stopped passing (its alert: the time since its last good pass) and one that keeps failing.
  const lastSuccess = registry
    ? new Gauge({
        name: 'periodic_job_last_success_timestamp_seconds',
        help: 'When each periodic job last finished a pass without an error (Unix time)',
        labelNames: ['name'],
        registers: [registry],
      })
    : undefined;
  const failures = registry
    ? new Counter({
        name: 'periodic_job_failures_total',
        help: 'Passes of each periodic job that ended in an error',
        labelNames: ['name'],
        registers: [registry],
      })
    : undefined;
  const wakers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakers.add(done);
    });
  const loops = jobs.map(async (job) => {
    const log = logger.child({ job: job.name });
    while (!stopping) {
      try {
        await job.run();
        lastSuccess?.set({ name: job.name }, Date.now() / 1000);
      } catch (err) {
        failures?.inc({ name: job.name });
        log.warn({ err }, 'periodic job failed; it runs again at its next interval');
      }
      if (!stopping) await sleep(job.intervalMs);
    }
  });
  return {
    async stop() {
      stopping = true;
      for (const wake of [...wakers]) wake();
      await Promise.all(loops);
    },
  };
}

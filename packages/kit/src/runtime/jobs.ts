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
export function startJobs(jobs: readonly PeriodicJob[], logger: Logger): { stop(): Promise<void> } {
  let stopping = false;
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
      } catch (err) {
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

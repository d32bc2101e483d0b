import { Counter, Gauge, type Registry } from 'prom-client';
import type { Logger } from '../logger';

/** Work a service repeats on a timer (the student service's deadline sweep), run by the runtime's lifecycle. */
export interface PeriodicJob {
  name: string;
  /** Pause between the end of one run and the start of the next (with `nextDue`: the longest pause). */
  intervalMs: number;
  /** One pass; a throw is logged and the next pass runs on time. Make it safe for several replicas at once. */
  run(): Promise<unknown>;
  /**
   * When the next piece of work is due (null: none waiting): the pause after a pass ends then, if sooner than
   * `intervalMs`. A job that only waits for work it is told of polls at `intervalMs` as a safety net only.
   */
  nextDue?(): Promise<Date | null>;
  /** Ends the pause at once when the service queues work for the job (`JobWaker.wake`). */
  waker?: JobWaker;
}

/**
 * Tells a job that work was queued in this process (a consumer's commit, an admin's "Send again"), so it runs now
 * rather than at its next poll. Other replicas' jobs find the work at their own `nextDue` or interval.
 */
export interface JobWaker {
  wake(): void;
  /** The job's loop listens here; returns the unsubscription. */
  listen(fn: () => void): () => void;
}

export function createJobWaker(): JobWaker {
  const listeners = new Set<() => void>();
  let pending = false;
  return {
    wake() {
      pending = listeners.size === 0;
      for (const fn of [...listeners]) fn();
    },
    listen(fn) {
      listeners.add(fn);
      // A wake that came while no pause was listening (during a pass) ends the next pause at once.
      if (pending) {
        pending = false;
        queueMicrotask(fn);
      }
      return () => listeners.delete(fn);
    },
  };
}

/** Declares a periodic job (an identity function that names the parts). */
export const every = (
  name: string,
  intervalMs: number,
  run: () => Promise<unknown>,
  options: Pick<PeriodicJob, 'nextDue' | 'waker'> = {},
): PeriodicJob => ({ name, intervalMs, run, ...options });

/**
 * The shortest pause after a pass that leaves work due: work due but held by another replica (`SKIP LOCKED`) is
 * looked at again this often, not in a busy loop.
 */
const MIN_PAUSE_MS = 200;

/** When the job's next work is due: a date, null when none is waiting, undefined when it could not tell. */
async function readDue(job: PeriodicJob, log: Logger): Promise<Date | null | undefined> {
  try {
    return await job.nextDue!();
  } catch (err) {
    log.warn({ err }, 'periodic job could not tell when its next work is due; it runs at its interval');
    return undefined;
  }
}

/** The pause until `due` (none: the interval), at least `MIN_PAUSE_MS` and at most the interval. */
function pauseUntil(job: PeriodicJob, due: Date | null | undefined): number {
  if (!due) return job.intervalMs;
  const floor = Math.min(job.intervalMs, MIN_PAUSE_MS);
  return Math.max(floor, Math.min(job.intervalMs, due.getTime() - Date.now()));
}

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
  /**
   * Resolves true when woken (the job's waker, or stop), false when the time ran out; at once once stopping (a stop
   * that came while the loop read when its work is due woke nobody).
   */
  const sleep = (ms: number, waker?: JobWaker) =>
    new Promise<boolean>((resolve) => {
      if (stopping) {
        resolve(true);
        return;
      }
      const end = (woken: boolean) => {
        clearTimeout(timer);
        wakers.delete(wake);
        unlisten?.();
        resolve(woken);
      };
      const wake = () => end(true);
      const timer = setTimeout(() => end(false), ms);
      wakers.add(wake);
      const unlisten = waker?.listen(wake);
    });
  const loops = jobs.map(async (job) => {
    const log = logger.child({ job: job.name });
    // A job that knows when its work is due runs only when woken or when work is due: idle, it costs one `nextDue`
    // a pause (the first pass always runs).
    let runNow = true;
    let due: Date | null | undefined;
    let dueKnown = false;
    while (!stopping) {
      if (runNow) {
        try {
          await job.run();
          lastSuccess?.set({ name: job.name }, Date.now() / 1000);
        } catch (err) {
          failures?.inc({ name: job.name });
          log.warn({ err }, 'periodic job failed; it runs again at its next interval');
        }
        dueKnown = false;
      }
      if (stopping) break;
      if (!job.nextDue) {
        await sleep(job.intervalMs, job.waker);
        continue;
      }
      if (!dueKnown) due = await readDue(job, log);
      const woken = await sleep(pauseUntil(job, due), job.waker);
      if (stopping) break;
      if (woken) {
        runNow = true;
        continue;
      }
      // The time ran out: work may have come due, or another replica may have queued some.
      due = await readDue(job, log);
      dueKnown = true;
      runNow = due === undefined || (due !== null && due.getTime() <= Date.now() + MIN_PAUSE_MS);
      // Looking and finding nothing due is a good pass too (the job's staleness alert reads this).
      if (!runNow) lastSuccess?.set({ name: job.name }, Date.now() / 1000);
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

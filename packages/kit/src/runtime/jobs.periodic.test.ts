import { Registry } from 'prom-client';
import { createLogger } from '../logger';
import { createJobWaker, every, startJobs } from './jobs';

const logger = createLogger({ name: 'jobs-test', level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('periodic jobs', () => {
  it('when a job runs, then it repeats at its interval, a failing pass does not stop it, and passes never overlap', async () => {
    let passes = 0;
    let running = 0;
    let overlapped = false;
    const jobs = startJobs(
      [
        every('sweep', 10, async () => {
          running++;
          overlapped ||= running > 1;
          passes++;
          await sleep(15);
          running--;
          if (passes === 2) throw new Error('a bad pass');
        }),
      ],
      logger,
    );
    // Four passes, the failing second among them, however slowly a busy machine runs them.
    while (passes < 4) await sleep(10);
    await jobs.stop();
    expect(passes).toBeGreaterThanOrEqual(4);
    expect(overlapped).toBe(false);
  });

  it('when the service stops while a job reads when its work is due, then the job ends at once, not after its pause', async () => {
    let reading: () => void = () => undefined;
    let reads = 0;
    const jobs = startJobs(
      [
        every('webhooks', 60_000, async () => undefined, {
          // A slow read (a busy database): the stop comes while it runs.
          nextDue: async () => {
            reads++;
            reading();
            await sleep(100);
            return null;
          },
        }),
      ],
      logger,
    );
    await new Promise<void>((resolve) => (reading = resolve));
    const t0 = Date.now();
    await jobs.stop();
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(reads).toBe(1);
  });

  it('when a job knows when its next work is due, then it waits until then, not its whole interval, and idles at the interval when nothing is due', async () => {
    const started: number[] = [];
    let due: Date | null = null;
    const t0 = Date.now();
    const jobs = startJobs(
      [
        every(
          'grades',
          60_000,
          async () => {
            started.push(Date.now() - t0);
            // The first pass leaves work due in 100 ms; the second none.
            due = started.length === 1 ? new Date(Date.now() + 100) : null;
          },
          { nextDue: async () => due },
        ),
      ],
      logger,
    );
    await sleep(400);
    await jobs.stop();
    expect(started).toHaveLength(2);
    expect(started[1]! - started[0]!).toBeGreaterThanOrEqual(90);
    expect(started[1]! - started[0]!).toBeLessThan(1_000);
  });

  it('when nothing is due, then the job only asks when work is due, once a pause, and does not run its pass', async () => {
    let passes = 0;
    let asked = 0;
    const jobs = startJobs(
      [
        every(
          'idle',
          50,
          async () => {
            passes++;
          },
          {
            nextDue: async () => {
              asked++;
              return null;
            },
          },
        ),
      ],
      logger,
    );
    await sleep(400);
    await jobs.stop();
    expect(passes).toBe(1);
    expect(asked).toBeGreaterThanOrEqual(4);
    expect(asked).toBeLessThanOrEqual(10);
  });

  it('when work is queued in the process, then the waker runs the job at once, also when it was woken during a pass', async () => {
    const waker = createJobWaker();
    let passes = 0;
    let release!: () => void;
    const jobs = startJobs(
      [
        every(
          'webhooks',
          60_000,
          async () => {
            passes++;
            if (passes === 2) await new Promise<void>((resolve) => (release = resolve));
          },
          { nextDue: async () => null, waker },
        ),
      ],
      logger,
    );
    await sleep(50);
    expect(passes).toBe(1);
    waker.wake();
    await sleep(50);
    expect(passes).toBe(2);
    // Woken while the second pass runs: the pause after it ends at once.
    waker.wake();
    release();
    await sleep(50);
    expect(passes).toBe(3);
    await sleep(100);
    expect(passes).toBe(3);
    await jobs.stop();
  });

  it('when a job passes and fails, then /metrics tells when it last passed and how often it failed', async () => {
    const registry = new Registry();
    let passes = 0;
    const jobs = startJobs(
      [
        every('deadline', 10, async () => {
          passes++;
          if (passes > 1) throw new Error('the database is down');
        }),
      ],
      logger,
      registry,
    );
    const before = Date.now() / 1000;
    await sleep(80);
    await jobs.stop();
    const text = await registry.metrics();
    const last = Number(
      /periodic_job_last_success_timestamp_seconds\{name="deadline"\} (\S+)/.exec(text)?.[1],
    );
    expect(last).toBeGreaterThanOrEqual(before - 1);
    expect(last).toBeLessThanOrEqual(Date.now() / 1000);
    expect(Number(/periodic_job_failures_total\{name="deadline"\} (\d+)/.exec(text)?.[1])).toBe(passes - 1);
  });

  it('when the jobs are stopped mid-pass, then stop waits for the pass and no new pass starts', async () => {
    let finished = 0;
    let started = 0;
    const jobs = startJobs(
      [
        every('slow', 1_000, async () => {
          started++;
          await sleep(100);
          finished++;
        }),
      ],
      logger,
    );
    await sleep(20);
    const begun = Date.now();
    await jobs.stop();
    expect(finished).toBe(1);
    expect(Date.now() - begun).toBeLessThan(500);
    await sleep(50);
    expect(started).toBe(1);
  });
});

import { Registry } from 'prom-client';
import { createLogger } from '../logger';
import { every, startJobs } from './jobs';

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
    await sleep(200);
    await jobs.stop();
    expect(passes).toBeGreaterThanOrEqual(4);
    expect(overlapped).toBe(false);
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

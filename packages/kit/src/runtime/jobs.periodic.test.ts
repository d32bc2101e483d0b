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

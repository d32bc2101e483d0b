import type { EventRoutes } from '../../domain/event-routes';
import { settleJob } from './event-routes';

/** A stub whose settles fail while `failing` says so. */
function routes(failing: () => boolean): EventRoutes {
  return {
    follow: async () => undefined,
    settleOnCommit: () => undefined,
    settle: async () => {
      if (failing()) throw new Error('broker not connected');
    },
    stop: async () => undefined,
  };
}

describe('the bindings settled periodically', () => {
  it('when settling fails, then the next try comes 2 s later, doubled after each failure up to the minute, and a success returns to the minute', async () => {
    let fail = true;
    const job = settleJob(routes(() => fail));
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      await expect(job.run()).rejects.toThrow('broker not connected');
      waits.push(Math.round(((await job.nextDue!())!.getTime() - Date.now()) / 1000));
    }
    expect(waits).toEqual([2, 4, 8, 16, 32, 60, 60]);
    fail = false;
    await job.run();
    expect(await job.nextDue!()).toBeNull();
    expect(job.intervalMs).toBe(60_000);
    fail = true;
    await expect(job.run()).rejects.toThrow();
    expect(Math.round(((await job.nextDue!())!.getTime() - Date.now()) / 1000)).toBe(2);
  });
});

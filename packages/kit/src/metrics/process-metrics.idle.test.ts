/*
 * What an idle service costs its machine: Node's event loop sampled every EVENT_LOOP_SAMPLE_MS, not prom-client's
 * 10 ms (each sample wakes the process), and the event-loop gauges reporting the delay alone.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { EVENT_LOOP_SAMPLE_MS } from './index';

jest.setTimeout(30_000);

/** A service of the kit's runtime with nothing to do, in a process of its own (the compiled kit: `make test` builds it). */
const idleService = `
  const [kit, zod] = process.argv.slice(1);
  const { z } = require(zod);
  const { defineService, startService } = require(kit + '/runtime');
  const { serviceEnv } = require(kit + '/config');
  const { createLogger } = require(kit + '/logger');
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  (async () => {
    const idle = defineService({ name: 'idle', config: z.object(serviceEnv), setup: () => ({ routes: () => {} }) });
    const running = await startService(idle, {
      config: { PORT: 0, HOST: '127.0.0.1', NODE_ENV: 'test', LOG_LEVEL: 'silent' },
      logger: createLogger({ name: 'idle', level: 'silent' }),
    });
    await sleep(1500);
    const before = process.resourceUsage();
    await sleep(3000);
    const after = process.resourceUsage();
    const metrics = await (await fetch(running.internalUrl + '/metrics')).text();
    await running.stop();
    const gauge = (name) => Number(new RegExp('^' + name + '\\\\{[^}]*\\\\} (\\\\S+)$', 'm').exec(metrics)[1]);
    process.stdout.write(JSON.stringify({
      wakeupsPerSecond: (after.voluntaryContextSwitches - before.voluntaryContextSwitches) / 3,
      lagMinSeconds: gauge('nodejs_eventloop_lag_min_seconds'),
      lagP50Seconds: gauge('nodejs_eventloop_lag_p50_seconds'),
    }));
  })().catch((err) => { console.error(err); process.exit(1); });
`;

function runIdleService(): Promise<{
  wakeupsPerSecond: number;
  lagMinSeconds: number;
  lagP50Seconds: number;
}> {
  const kit = path.resolve(__dirname, '../../dist');
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['-e', idleService, kit, require.resolve('zod')], (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    ),
  );
}

test('when a service idles, then its process wakes about once per event-loop sample, not a hundred times a second, and its event-loop gauges read the delay without the interval', async () => {
  const idle = await runIdleService();
  // Ten samples a second and the odd timer of its own; prom-client's default woke it about a hundred times.
  expect(idle.wakeupsPerSecond).toBeLessThan(1000 / EVENT_LOOP_SAMPLE_MS + 15);
  // Node's histogram holds the time between samples, so the interval itself would read as at least 0.1 s.
  expect(idle.lagMinSeconds).toBeGreaterThanOrEqual(0);
  expect(idle.lagMinSeconds).toBeLessThan(EVENT_LOOP_SAMPLE_MS / 2000);
  expect(idle.lagP50Seconds).toBeLessThan(EVENT_LOOP_SAMPLE_MS / 1000);
});

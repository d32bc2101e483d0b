import path from 'node:path';
import { eventually } from '@readiness/testing';
import { startEmbeddedPostgres } from '.';
import { alive, logger, query, scratchFolder } from './test/helpers';

jest.setTimeout(120_000);

const dataDir = path.join(scratchFolder('embedded-pg-restart-'), 'postgres');

test('when the PostgreSQL server is killed, then it is started again with its data, every time', async () => {
  const server = await startEmbeddedPostgres({ dataDir, logger });
  try {
    const url = await server.ensureDatabase('app');
    await query(url, 'CREATE TABLE kept (note text); INSERT INTO kept VALUES ($$before the kill$$)');
    for (const round of [1, 2]) {
      const killed = server.pid;
      process.kill(killed, 'SIGKILL');
      await eventually(() => !alive(killed), 'the server to die', 5_000);
      await eventually(
        async () =>
          (await query<{ note: string }>(url, 'SELECT note FROM kept').catch(() => []))[0]?.note ===
          'before the kill',
        // How soon is the supervisor's business (it restarts at once); the wait only bounds a busy machine.
        `the server to be back (round ${round})`,
        30_000,
      );
      expect(server.pid).not.toBe(killed);
    }
  } finally {
    await server.stop();
  }
  // Stopped on purpose, it stays stopped.
  const last = server.pid;
  await new Promise((r) => setTimeout(r, 1_500));
  expect(alive(last)).toBe(false);
  expect(server.pid).toBe(last);
});

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eventually } from '@readiness/testing';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '.';
import { alive, logger, query, scratchFolder } from './test/helpers';

jest.setTimeout(120_000);

const dataDir = path.join(scratchFolder('embedded-pg-stale-'), 'postgres');
let server: EmbeddedPostgres | undefined;
afterEach(() => server?.stop());

test('when the server is killed and its launcher stops at once, then the next start recovers its folder and keeps committed rows', async () => {
  server = await startEmbeddedPostgres({ dataDir, logger });
  const url = await server.ensureDatabase('app');
  await query(url, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (1), (2)');
  const pid = server.pid;
  process.kill(pid, 'SIGKILL');
  // Stopped before its supervision restarts the server (server-killed.restarted.test.ts covers that).
  await server.stop();
  await eventually(() => !alive(pid), 'the killed server to exit');
  expect(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]).toBe(String(pid));

  server = await eventually(
    () => startEmbeddedPostgres({ dataDir, logger }),
    'a restart after the crash',
    30_000,
  );
  expect(await query(url, 'SELECT n FROM kept ORDER BY n')).toEqual([{ n: 1 }, { n: 2 }]);
  await server.stop();
});

test('when postmaster.pid names a live process that is not PostgreSQL, then the start removes it and succeeds', async () => {
  // The pid of a crashed server is often reused by another program after a reboot or in a container.
  writeFileSync(path.join(dataDir, 'postmaster.pid'), `${process.pid}\n${dataDir}\n`);
  server = await startEmbeddedPostgres({ dataDir, logger });
  expect(await query(await server.ensureDatabase('app'), 'SELECT count(*)::int AS n FROM kept')).toEqual([
    { n: 2 },
  ]);
});

test('when a second launcher starts on a folder whose server is running, then it is refused with what to do', async () => {
  server = await startEmbeddedPostgres({ dataDir, logger });
  await expect(startEmbeddedPostgres({ dataDir, logger })).rejects.toThrow(/already runs on .*DATA_DIR/);
  // Trust authentication over a socket: no password and no password file anywhere in the folder.
  expect(readdirSync(dataDir).filter((f) => /pass|pwfile/i.test(f))).toEqual([]);
});

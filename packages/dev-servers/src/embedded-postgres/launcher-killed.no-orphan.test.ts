import { existsSync } from 'node:fs';
import path from 'node:path';
import { eventually } from '@readiness/testing';
import { startEmbeddedPostgres } from '.';
import { alive, logger, query, scratchFolder, startLauncherProcess } from './test/helpers';

jest.setTimeout(120_000);

const dataDir = path.join(scratchFolder('embedded-pg-kill-'), 'postgres');

test('when the launcher is killed with SIGKILL, then its PostgreSQL server exits too and the next start on the same folder keeps the data', async () => {
  const { launcher, pid, url } = await startLauncherProcess(dataDir);
  await query(url, 'CREATE TABLE kept (note text); INSERT INTO kept VALUES ($$before the crash$$)');
  expect(alive(pid)).toBe(true);

  launcher.kill('SIGKILL');
  await eventually(() => !alive(pid), 'the server to follow its launcher', 15_000);
  expect(existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(false);

  const server = await startEmbeddedPostgres({ dataDir, logger });
  try {
    const rows = await query<{ note: string }>(await server.ensureDatabase('app'), 'SELECT note FROM kept');
    expect(rows).toEqual([{ note: 'before the crash' }]);
  } finally {
    await server.stop();
  }
  expect(alive(server.pid)).toBe(false);
});

test('when Ctrl-C reaches the launcher process group, then the server keeps running until the launcher stops it', async () => {
  const { launcher, pid, url } = await startLauncherProcess(dataDir);
  try {
    process.kill(-(launcher.pid as number), 'SIGINT');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await query(url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  } finally {
    launcher.kill('SIGKILL');
    await eventually(() => !alive(pid), 'the server to follow its launcher', 15_000);
  }
});

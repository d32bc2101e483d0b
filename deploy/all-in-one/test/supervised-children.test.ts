import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eventually } from '@readiness/testing';
import { api, startProduct, type RunningProduct } from './launcher';

jest.setTimeout(240_000);

let product: RunningProduct | undefined;
afterAll(() => product?.stop());

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Every process below `pid`, children first found through `ps`. */
function descendants(pid: number): Array<{ pid: number; command: string }> {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .map(([p, pp, ...c]) => ({ pid: Number(p), ppid: Number(pp), command: c.join(' ') }));
  const found: Array<{ pid: number; command: string }> = [];
  const walk = (parent: number) => {
    for (const row of rows.filter((r) => r.ppid === parent)) {
      found.push({ pid: row.pid, command: row.command });
      walk(row.pid);
    }
  };
  walk(pid);
  return found;
}

const postmaster = (dataDir: string) =>
  Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

/** A call that needs the student service's database and is never throttled: an unknown invitation link. */
const unknownLink = (url: string) => api(url, 'GET', `/api/student/${'x'.repeat(43)}/assessment`);

test('when the embedded PostgreSQL is killed, then /readyz and the calls answer 503 until it is back within seconds, and then both work', async () => {
  product = await startProduct({
    PUPPETEER_EXECUTABLE_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  });
  const { url, dataDir } = product;
  expect((await fetch(`${url}/readyz`)).status).toBe(200);
  expect((await unknownLink(url)).status).toBe(404);

  const killed = postmaster(dataDir);
  process.kill(killed, 'SIGKILL');
  const at = Date.now();
  const seen = { readyz: new Set<number>(), call: new Set<number>() };
  await eventually(
    async () => {
      const [ready, call] = await Promise.all([
        fetch(`${url}/readyz`).then((r) => r.status),
        unknownLink(url),
      ]);
      seen.readyz.add(ready);
      seen.call.add(call.status);
      if (call.status === 503) expect(call.body).toMatchObject({ code: expect.any(String) });
      return ready === 200 && call.status === 404 && seen.readyz.has(503);
    },
    'the database to be back after the probe saw it gone',
    // Typically two to three seconds (the supervisor's restart and PostgreSQL's crash recovery); the bound leaves
    // room for a machine busy with other test files, and only catches a restart that does not come.
    30_000,
  );
  expect(Date.now() - at).toBeLessThan(30_000);
  expect([...seen.readyz].sort()).toEqual([200, 503]);
  expect(seen.call.has(503)).toBe(true);
  expect([...seen.call].every((s) => s === 404 || s === 503)).toBe(true);
  expect(postmaster(dataDir)).not.toBe(killed);
  expect(alive(killed)).toBe(false);
});

test('when the product is killed with SIGKILL, then its PostgreSQL server and its PDF browser stop with it', async () => {
  const running = product!;
  const children = await eventually(() => {
    const found = descendants(running.pid);
    return (
      found.some((c) => /chrom/i.test(c.command)) && found.some((c) => c.command === 'postgres') && found
    );
  }, 'the PDF browser and PostgreSQL to run under the product');
  await running.kill();
  await eventually(
    () => children.every((c) => !alive(c.pid)),
    `${children.map((c) => `${c.command} ${c.pid}`).join(', ')} to stop`,
    15_000,
  );
});

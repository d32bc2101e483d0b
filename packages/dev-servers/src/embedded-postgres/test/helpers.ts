import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createLogger } from '@readiness/kit/logger';

export const logger = createLogger({ name: 'embedded-postgres-test', level: 'silent' });

/**
 * A fresh folder, removed after the file's tests. Readable by others like a folder made with the usual umask
 * (mkdtemp makes it 0700), so that as root the server's user reaches it and nothing is placed elsewhere.
 */
export function scratchFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** True while `pid` is a running process. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function query<R extends Record<string, unknown>>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A separate node process that starts the server on `dataDir` from the built package, creates database `app`,
 * prints `{ pid, url }` on one line and then waits to be killed: the launcher of `make start` in miniature.
 */
export async function startLauncherProcess(
  dataDir: string,
): Promise<{ launcher: ChildProcess; pid: number; url: string }> {
  const devServers = path.resolve(__dirname, '../../../dist');
  const kit = path.resolve(__dirname, '../../../../kit/dist');
  const script = `
    const { startEmbeddedPostgres } = require(${JSON.stringify(devServers)});
    const { createLogger } = require(${JSON.stringify(path.join(kit, 'logger'))});
    startEmbeddedPostgres({ dataDir: process.argv[1], logger: createLogger({ name: 't', level: 'silent' }) })
      .then(async (server) => {
        const url = await server.ensureDatabase('app');
        // Like the product's launcher, Ctrl-C starts a shutdown rather than ending the process at once. Handled
        // before the line below is written: the test signals as soon as it reads it.
        process.on('SIGINT', () => undefined);
        process.stdout.write(JSON.stringify({ pid: server.pid, url }) + '\\n');
        setInterval(() => undefined, 1000);
      })
      .catch((err) => { console.error(err); process.exit(1); });`;
  // A process group of its own, as a terminal gives the command it runs.
  const launcher = spawn(process.execPath, ['-e', script, dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    launcher.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve(out.split('\n')[0] as string);
    });
    launcher.once('exit', (code) => reject(new Error(`launcher exited with ${code}`)));
  });
  return { launcher, ...(JSON.parse(line) as { pid: number; url: string }) };
}

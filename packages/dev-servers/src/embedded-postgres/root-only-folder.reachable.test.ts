import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  rmSync,
} from 'node:fs';
import path from 'node:path';
import { embeddedPostgresBinaries, startEmbeddedPostgres } from '.';
import { logger, query, scratchFolder } from './test/helpers';

jest.setTimeout(120_000);

// Only root runs the server as another user; for anyone else every folder they own is reachable.
const asRoot = process.getuid?.() === 0 ? test : test.skip;

const scratch = scratchFolder('embedded-pg-root-');
const reachableRoot = path.join(scratch, 'reachable');
// A clone under /root in miniature: a folder only root may enter.
const privateHome = path.join(scratch, 'home');
mkdirSync(privateHome, { mode: 0o700 });
chmodSync(privateHome, 0o700);

asRoot(
  'when DATA_DIR lies in a folder only root may enter, then the server keeps its files where it can reach them, linked from DATA_DIR, and keeps them across restarts',
  async () => {
    const dataDir = path.join(privateHome, 'data', 'postgres');
    const first = await startEmbeddedPostgres({ dataDir, logger, reachableRoot });
    await query(await first.ensureDatabase('app'), 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)');
    await first.stop();
    expect(lstatSync(dataDir).isSymbolicLink()).toBe(true);
    expect(readlinkSync(dataDir).startsWith(reachableRoot)).toBe(true);

    const second = await startEmbeddedPostgres({ dataDir, logger, reachableRoot });
    try {
      expect(await query(second.url('app'), 'SELECT n FROM kept')).toEqual([{ n: 7 }]);
    } finally {
      await second.stop();
    }
  },
);

asRoot(
  'when an existing data folder cannot be reached by the server user, then the start says how to move it instead of failing with EACCES',
  async () => {
    const dataDir = path.join(privateHome, 'existing', 'postgres');
    mkdirSync(dataDir, { recursive: true });
    await expect(startEmbeddedPostgres({ dataDir, logger, reachableRoot })).rejects.toThrow(
      /cannot reach it\. Move it to .*\(ln -s /,
    );
  },
);

asRoot(
  'when the binaries lie in a folder only root may enter (a clone under /root), then the server runs from a copy it can reach',
  async () => {
    const installed = embeddedPostgresBinaries();
    const binaries = path.join(privateHome, 'clone', 'native');
    cpSync(installed, binaries, { recursive: true, verbatimSymlinks: true });
    cpSync(path.join(installed, '..', 'package.json'), path.join(binaries, '..', 'package.json'));
    const server = await startEmbeddedPostgres({
      dataDir: path.join(privateHome, 'clone', '.data', 'postgres'),
      logger,
      reachableRoot,
      binaries,
    });
    try {
      expect(await query(await server.ensureDatabase('app'), 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await server.stop();
    }
    expect(readdirSync(reachableRoot)).toContainEqual(
      expect.stringMatching(/^postgres-\d+\.\d+\.\d+.*-linux-/),
    );
  },
);

asRoot(
  'when a DATA_DIR whose data was kept elsewhere is deleted, then the next start removes that data and keeps what other DATA_DIRs link to',
  async () => {
    const gone = path.join(privateHome, 'temporary', 'postgres');
    const kept = path.join(privateHome, 'kept', 'postgres');
    for (const dataDir of [gone, kept])
      await (await startEmbeddedPostgres({ dataDir, logger, reachableRoot })).stop();
    const goneTarget = readlinkSync(gone);
    const keptTarget = readlinkSync(kept);
    expect(existsSync(goneTarget)).toBe(true);

    rmSync(path.join(privateHome, 'temporary'), { recursive: true, force: true });
    const next = await startEmbeddedPostgres({
      dataDir: path.join(privateHome, 'next', 'postgres'),
      logger,
      reachableRoot,
    });
    await next.stop();

    expect(existsSync(goneTarget)).toBe(false);
    expect(existsSync(`${goneTarget}.linked-from`)).toBe(false);
    expect(existsSync(keptTarget)).toBe(true);
    expect(lstatSync(kept).isSymbolicLink()).toBe(true);
  },
);

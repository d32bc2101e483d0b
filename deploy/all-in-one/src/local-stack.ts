/**
 * The local stack as a library: one process per service from its `dist`, as in Kubernetes, against the
 * PostgreSQL, RabbitMQ and Redis on this machine, with an SMTP catcher in the calling process and one embedded S3
 * server in a process of its own (the product's bucket, shared as in Kubernetes). `make stack`
 * runs it on fixed ports; the fault suite and the enrolment-peak benchmark run it on free ports with their
 * own databases and vhost, kill and restart its services, and put TCP proxies between a service and
 * PostgreSQL, RabbitMQ or SMTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import {
  spawnEmbeddedS3,
  startMailCatcher,
  type EmbeddedS3Process,
  type MailCatcher,
} from '@readiness/dev-servers';
import { freePort } from '@readiness/testing';
import { stackServices, type StackServiceName } from './stack-services';

export type { StackServiceName };

const ROOT = path.resolve(__dirname, '../../..');
/**
 * How long a service may take to answer /readyz. A start is a few seconds; on two cores shared with a browser run
 * and a fault scenario's burst, auth's twenty-odd queue declarations alone have taken most of a minute.
 */
const READY_TIMEOUT_MS = 150_000;
const STOP_GRACE_MS = 15_000;

export interface LocalStackOptions {
  /**
   * Names the databases (`<name>_<service>`) and, with `isolate`, the data folder. Default `readiness`, the
   * databases of `make stack`.
   */
  name?: string;
  /** Fresh databases and data folder, both removed by `stop()`. */
  isolate?: boolean;
  /** `fixed`: the ports of `make stack` (gateway on `gatewayPort`); `free`: every port picked free. */
  ports?: 'fixed' | 'free';
  /** The gateway's port with fixed ports; default 8080. */
  gatewayPort?: number;
  /** A database with the right to create databases; default the local server's `postgres`. */
  pgUrl?: string;
  /** RabbitMQ, with the vhost to use (a test's own: `createTestVhost()` of `@readiness/testing`). */
  amqpUrl?: string;
  redisUrl?: string;
  /** The services' DATA_DIR (keys) and the S3 server's folder (`s3/`); with `isolate` a fresh temporary folder. */
  dataDir?: string;
  /** For every service. */
  env?: NodeJS.ProcessEnv;
  serviceEnv?: Partial<Record<StackServiceName, NodeJS.ProcessEnv>>;
  /** Rewrite the address a service is given, to put a proxy between it and PostgreSQL, RabbitMQ or SMTP. */
  connect?: {
    database?(service: StackServiceName, url: string): string;
    amqp?(service: StackServiceName, url: string): string;
    smtp?(service: StackServiceName, url: string): string;
  };
  /** `inherit`: the services write to this process's output; `buffer`: kept for `output(name)`. */
  output?: 'inherit' | 'buffer';
  /** Flags for each service's node, e.g. `--cpu-prof` to see where a benchmark's time goes. */
  nodeArgs?: string[];
  /**
   * Where a service's code comes from: a checkout whose `services/<name>/dist/main.js` runs instead of this
   * repository's (another version of it, built; the upgrade rehearsal).
   */
  serviceRoot?: Partial<Record<StackServiceName, string>>;
  /**
   * Runs once every database exists (empty when new) and the S3 server is up, before any service starts: a
   * restore into a fresh stack, as `docs/operations.md` restores into a fresh install.
   */
  beforeStart?(resources: {
    databases: Partial<Record<StackServiceName, string>>;
    objectStorage: Record<string, string>;
  }): Promise<void>;
}

export interface StackServiceHandle {
  url: string;
  /** `/metrics` and `/readyz?verbose`. */
  internalUrl: string;
  pid: number | undefined;
  databaseUrl?: string;
}

export interface StackReplica {
  url: string;
  output(): string;
  /** Sends the signal (default SIGTERM) and resolves with the exit code once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface LocalStack {
  gatewayUrl: string;
  amqpUrl: string;
  vhost: string;
  mail: MailCatcher;
  dataDir: string;
  /** The S3 server every service that uses object storage reaches (a process of its own), and its S3_* settings. */
  objectStorage: { endpoint: string; pid: number | undefined; env: Record<string, string> };
  service(name: StackServiceName): StackServiceHandle;
  /**
   * Sends the signal (default SIGKILL, as a crash) and resolves once the process has exited, with its exit code
   * (null when a signal ended it, or it was not running).
   */
  kill(name: StackServiceName, signal?: NodeJS.Signals): Promise<number | null>;
  /** Starts the service (again) and resolves once its `/readyz` answers 200. */
  start(name: StackServiceName): Promise<void>;
  /** What the service printed, with `output: 'buffer'`. */
  output(name: StackServiceName): string;
  /**
   * Starts one more process of the service (its environment, database and queues; its own free ports), from
   * `root` (a checkout, as in `serviceRoot`) or this repository; resolves once it is ready. Stopped by `stop()`.
   */
  replica(name: StackServiceName, options?: { root?: string }): Promise<StackReplica>;
  /** SIGTERM to every service (SIGKILL after a grace), then removes what `isolate` created. */
  stop(): Promise<void>;
}

async function withPg<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(pgUrl: string, name: string): string {
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

async function waitReady(
  url: string,
  child: ChildProcess,
  name: string,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${name} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output()}`,
      );
    }
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline)
      throw new Error(`${name} was not ready within ${READY_TIMEOUT_MS} ms:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Running {
  port: number;
  internalPort: number;
  databaseUrl?: string;
  env: NodeJS.ProcessEnv;
  child?: ChildProcess;
  exited?: Promise<void>;
  output: string;
}

/** The ports of every service: those of `make stack` (internal ones 1000 above), or free ones. */
async function assignPorts(
  options: LocalStackOptions,
): Promise<Map<StackServiceName, { port: number; internalPort: number }>> {
  const ports = new Map<StackServiceName, { port: number; internalPort: number }>();
  for (const svc of stackServices) {
    const fixedPort = svc.name === 'gateway' ? (options.gatewayPort ?? 8080) : svc.port;
    const port = options.ports === 'free' ? await freePort() : fixedPort;
    // Metrics and verbose readiness: 1000 above the service's port on fixed ports.
    const internalPort = options.ports === 'free' ? await freePort() : port + 1000;
    ports.set(svc.name, { port, internalPort });
  }
  return ports;
}

/** Creates the database when missing (a fresh one with `isolate`, dropped again at the end); answers its URL. */
async function prepareDatabase(
  pgUrl: string,
  database: string,
  isolate: boolean,
  cleanups: Array<() => Promise<void>>,
): Promise<string> {
  await withPg(pgUrl, async (client) => {
    if (isolate) await client.query(`DROP DATABASE IF EXISTS ${quoted(database)} WITH (FORCE)`);
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE ${quoted(database)}`);
  });
  if (isolate) {
    cleanups.push(() =>
      withPg(pgUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${quoted(database)} WITH (FORCE)`),
      ).then(() => undefined),
    );
  }
  return databaseUrl(pgUrl, database);
}

/** Each service's port, database and environment, in start order, and the gateway's URL. */
async function planServices(
  options: LocalStackOptions,
  shared: { name: string; isolate: boolean; dataDir: string; mail: MailCatcher; s3: EmbeddedS3Process },
  cleanups: Array<() => Promise<void>>,
): Promise<{ running: Map<StackServiceName, Running>; gatewayUrl: string; amqpUrl: string }> {
  const pgUrl = options.pgUrl ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const amqpUrl = options.amqpUrl ?? 'amqp://guest:guest@127.0.0.1:5672';
  const redisUrl = options.redisUrl ?? 'redis://127.0.0.1:6379';
  const connect = options.connect ?? {};
  const ports = await assignPorts(options);
  // Links in mail point at the gateway.
  const publicOrigin = `http://localhost:${ports.get('gateway')!.port}`;
  const running = new Map<StackServiceName, Running>();
  const urls: Record<string, string> = {};
  for (const svc of stackServices) {
    const { port, internalPort } = ports.get(svc.name)!;
    const dbUrl = svc.database
      ? await prepareDatabase(pgUrl, `${shared.name}_${svc.name}`, shared.isolate, cleanups)
      : undefined;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      INTERNAL_PORT: String(internalPort),
      // Services trust the gateway in front of them on loopback; the gateway trusts what it is told.
      TRUSTED_PROXIES: svc.name === 'gateway' ? process.env.TRUSTED_PROXIES : 'loopback',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      DATA_DIR: shared.dataDir,
      AMQP_URL: connect.amqp ? connect.amqp(svc.name, amqpUrl) : amqpUrl,
      REDIS_URL: redisUrl,
      SMTP_URL: connect.smtp ? connect.smtp(svc.name, shared.mail.url) : shared.mail.url,
      PUBLIC_ORIGIN: publicOrigin,
      ...(dbUrl ? { DATABASE_URL: connect.database ? connect.database(svc.name, dbUrl) : dbUrl } : {}),
      ...(svc.objectStorage ? shared.s3.env : {}),
      ...svc.env(urls),
      ...options.env,
      ...options.serviceEnv?.[svc.name],
    };
    running.set(svc.name, { port, internalPort, databaseUrl: dbUrl, env, output: '' });
    urls[svc.name] = `http://127.0.0.1:${port}`;
  }
  return { running, gatewayUrl: urls.gateway as string, amqpUrl };
}

/** Starts, kills and stops the services' processes, each from its `dist`. */
class StackProcesses {
  private stopped = false;
  /** Stops of the extra processes `replica` started. */
  private readonly replicas: Array<() => Promise<void>> = [];
  // A harness that dies (a test runner's worker, Ctrl-C) takes its services with it.
  private readonly killAllNow = () => {
    for (const entry of this.running.values()) entry.child?.kill('SIGKILL');
    for (const child of this.replicaChildren) child.kill('SIGKILL');
  };
  private readonly replicaChildren = new Set<ChildProcess>();

  constructor(
    private readonly running: Map<StackServiceName, Running>,
    private readonly options: LocalStackOptions,
    private readonly cleanups: Array<() => Promise<void>>,
  ) {
    process.once('exit', this.killAllNow);
  }

  entry(svc: StackServiceName): Running {
    const entry = this.running.get(svc);
    if (!entry) throw new Error(`no service ${svc} in the stack`);
    return entry;
  }

  /** Every service at once; resolves when all are ready, else stops them all and throws. */
  async startAll(): Promise<void> {
    try {
      for (const svc of this.running.keys()) this.spawn(svc);
      await Promise.all(
        [...this.running.entries()].map(([svc, entry]) =>
          waitReady(`http://127.0.0.1:${entry.port}`, entry.child!, svc, () => entry.output),
        ),
      );
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  async start(svc: StackServiceName): Promise<void> {
    const entry = this.entry(svc);
    if (entry.child && entry.child.exitCode === null && entry.child.signalCode === null) {
      throw new Error(`${svc} is already running`);
    }
    const child = this.spawn(svc);
    await waitReady(`http://127.0.0.1:${entry.port}`, child, svc, () => entry.output);
  }

  async kill(svc: StackServiceName, signal: NodeJS.Signals = 'SIGKILL'): Promise<number | null> {
    const entry = this.entry(svc);
    if (!entry.child || entry.child.exitCode !== null || entry.child.signalCode !== null) return null;
    entry.child.kill(signal);
    await entry.exited;
    return entry.child.exitCode;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.all(this.replicas.map((stop) => stop()));
    await Promise.all(
      [...this.running.values()].map(async (entry) => {
        if (!entry.child || entry.child.exitCode !== null || entry.child.signalCode !== null) return;
        const killer = setTimeout(() => entry.child?.kill('SIGKILL'), STOP_GRACE_MS);
        entry.child.kill('SIGTERM');
        await entry.exited;
        clearTimeout(killer);
      }),
    );
    process.removeListener('exit', this.killAllNow);
    for (const cleanup of this.cleanups.reverse()) await cleanup().catch(() => undefined);
  }

  private spawn(svc: StackServiceName): ChildProcess {
    const entry = this.entry(svc);
    entry.output = '';
    const child = this.spawnProcess(svc, entry, this.options.serviceRoot?.[svc] ?? ROOT);
    entry.child = child;
    entry.exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return child;
  }

  /** Runs `services/<svc>/dist/main.js` of `root` with the entry's environment; its output goes to the entry. */
  private spawnProcess(svc: StackServiceName, entry: Running, root: string): ChildProcess {
    const stdio = this.options.output === 'buffer' ? 'pipe' : 'inherit';
    const child = spawn(
      process.execPath,
      [...(this.options.nodeArgs ?? []), path.join(root, `services/${svc}/dist/main.js`)],
      { cwd: ROOT, env: entry.env, stdio: ['ignore', stdio, stdio] },
    );
    const keep = (chunk: Buffer) => {
      entry.output += chunk.toString();
      // Keep the tail: a long benchmark must not grow the harness without bound.
      if (entry.output.length > 2_000_000) entry.output = entry.output.slice(-1_000_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    return child;
  }

  async replica(svc: StackServiceName, root = ROOT): Promise<StackReplica> {
    const base = this.entry(svc);
    const port = await freePort();
    const internalPort = await freePort();
    const entry: Running = {
      ...base,
      port,
      internalPort,
      env: { ...base.env, PORT: String(port), INTERNAL_PORT: String(internalPort) },
      output: '',
    };
    const child = this.spawnProcess(svc, entry, root);
    this.replicaChildren.add(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) {
        const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        child.kill(signal);
        await exited;
        clearTimeout(killer);
      }
      return exited;
    };
    this.replicas.push(() => stop().then(() => undefined));
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitReady(url, child, `${svc} (replica)`, () => entry.output);
    } catch (err) {
      await stop('SIGKILL');
      throw err;
    }
    return { url, output: () => entry.output, stop };
  }
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const name = options.name ?? 'readiness';
  const isolate = options.isolate ?? false;
  const cleanups: Array<() => Promise<void>> = [];

  const dataDir = options.dataDir
    ? path.resolve(options.dataDir)
    : isolate
      ? await mkdtemp(path.join(os.tmpdir(), `${name}-`))
      : path.resolve(ROOT, process.env.DATA_DIR ?? '.data');
  if (isolate && !options.dataDir) cleanups.push(() => rm(dataDir, { recursive: true, force: true }));

  const mail = await startMailCatcher({ capacity: Number(process.env.STACK_MAIL_CAPACITY ?? 100_000) });
  cleanups.push(() => mail.close());
  const s3 = await spawnEmbeddedS3({ directory: path.join(dataDir, 's3') });
  const killS3 = () => s3.child.kill('SIGKILL');
  process.once('exit', killS3);
  cleanups.push(async () => {
    process.off('exit', killS3);
    await s3.close();
  });

  const { running, gatewayUrl, amqpUrl } = await planServices(
    options,
    { name, isolate, dataDir, mail, s3 },
    cleanups,
  );
  const processes = new StackProcesses(running, options, cleanups);
  try {
    await options.beforeStart?.({
      databases: Object.fromEntries(
        [...running].flatMap(([svc, entry]) => (entry.databaseUrl ? [[svc, entry.databaseUrl]] : [])),
      ),
      objectStorage: { ...s3.env },
    });
  } catch (err) {
    await processes.stop();
    throw err;
  }
  await processes.startAll();

  return {
    gatewayUrl,
    amqpUrl,
    vhost: decodeURIComponent(new URL(amqpUrl).pathname.slice(1)) || '/',
    mail,
    dataDir,
    objectStorage: { endpoint: s3.endpoint, pid: s3.child.pid, env: { ...s3.env } },
    service: (svc) => {
      const entry = processes.entry(svc);
      return {
        url: `http://127.0.0.1:${entry.port}`,
        internalUrl: `http://127.0.0.1:${entry.internalPort}`,
        pid: entry.child?.exitCode === null && entry.child.signalCode === null ? entry.child.pid : undefined,
        databaseUrl: entry.databaseUrl,
      };
    },
    kill: (svc, signal) => processes.kill(svc, signal),
    start: (svc) => processes.start(svc),
    output: (svc) => processes.entry(svc).output,
    replica: (svc, replicaOptions) => processes.replica(svc, replicaOptions?.root),
    stop: () => processes.stop(),
  };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createAdminPastFirstSignIn, freePort } from '@readiness/testing';

/** A new admin through the product's API, past the first sign-in where they replace the password they were given. */
export { createAdminPastFirstSignIn };

const ROOT = path.resolve(__dirname, '../../..');
const STARTUP_TIMEOUT_MS = 150_000;

export interface RunningProduct {
  url: string;
  /** The product's process id. */
  pid: number;
  output: () => string;
  /** The data folder; removed on `stop()` unless the caller gave it. */
  dataDir: string;
  stop(): Promise<void>;
  /** SIGKILL, as a crash would: nothing is cleaned up and the data folder stays. */
  kill(): Promise<void>;
}

/**
 * Starts the built all-in-one product (`make start`'s process) on a free port with its data in a temporary
 * folder, and resolves once it prints that it is running.
 */
export async function startProduct(
  env: Record<string, string> = {},
  options: { dataDir?: string } = {},
): Promise<RunningProduct> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'readiness-e2e-')));
  const removeData = () =>
    options.dataDir ? Promise.resolve() : rm(dataDir, { recursive: true, force: true });
  // As root the embedded PostgreSQL runs as nobody, which must reach the folder (mkdtemp makes it 0700).
  await chmod(dataDir, 0o755);
  // A test that must know the address before the start (a provider's redirect URI) chooses the port itself.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'deploy/all-in-one/dist/main.js')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const startedAt = Date.now();
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (output.includes('Readiness is running at')) {
          clearInterval(timer);
          resolve();
        } else if (child.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`the product exited with ${child.exitCode}:\n${output}`));
        } else if (Date.now() - startedAt > STARTUP_TIMEOUT_MS) {
          clearInterval(timer);
          reject(new Error(`the product did not start within ${STARTUP_TIMEOUT_MS} ms:\n${output}`));
        }
      }, 100);
    });
  } catch (err) {
    // A product that never came up must not outlive the test run.
    child.kill('SIGKILL');
    await exited;
    await removeData();
    throw err;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    output: () => output,
    dataDir,
    stop: async () => {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
      await removeData();
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The super admin every test product is seeded with, the browser lane's shared one included. */
export const SEED = { email: 'owner@example.edu', password: 'first-owner-password' };

/** Names the file where the browser lane's globalSetup wrote its shared product and browser (web/e2e/shared-product.ts). */
export const SHARED_ENV = 'READINESS_E2E_SHARED';

/**
 * Where a browser lane keeps its shared product's output, in test-results: one file a lane (TEST_LANE, which
 * tests/tools/run-lanes.mjs gives each), since the lanes e2e and e2e-2 each run a shared product.
 */
export const sharedProductLog = () => `${process.env.TEST_LANE ?? 'e2e'}-shared-product.log`;

export interface SharedHandles {
  /** The product's base URL. */
  url: string;
  /** Chromium's endpoint for playwright's `chromium.connect`. */
  wsEndpoint: string;
  /** The product's data folder (its embedded PostgreSQL is under `postgres/`). */
  dataDir: string;
}

/** The lane's shared product and browser, when the lane started them. */
export function sharedHandles(): SharedHandles | undefined {
  const file = process.env[SHARED_ENV];
  if (!file || !existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as SharedHandles;
}

/** The lane's shared product as a file sees it: stopping it leaves it running for the next file. */
export function sharedProduct(url: string, dataDir: string): RunningProduct {
  const notOurs = () => {
    throw new Error('the shared product belongs to the lane: start a product of your own to kill it');
  };
  return {
    url,
    pid: 0,
    output: () => `(the shared product: its output is in test-results/${sharedProductLog()})`,
    dataDir,
    stop: async () => undefined,
    kill: async () => notOurs(),
  };
}

/**
 * The browser lane's shared product when it runs, else a product of the file's own; either is seeded with `SEED`.
 * For the HTTP journeys, which need nothing but the defaults.
 */
export async function sharedOrOwnProduct(): Promise<RunningProduct> {
  const shared = sharedHandles();
  if (shared) return sharedProduct(shared.url, shared.dataDir);
  return startProduct({ SEED_ADMIN_EMAIL: SEED.email, SEED_ADMIN_PASSWORD: SEED.password });
}

export async function api<T = Record<string, unknown>>(
  base: string,
  method: string,
  route: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T, headers: res.headers };
}

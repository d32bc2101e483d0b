import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runInThisContext } from 'node:vm';
import { createLogger } from '@readiness/kit/logger';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chooseBrowser } from '../src/rendering/browser-choice';
import { tiedToThisProcess } from '../src/rendering/tied-browser';

/** The worker's Chromium: where to connect, and its process. */
interface WorkerChromium {
  endpoint: string;
  child: ChildProcess;
}

/**
 * Jest gives each test file a global object and a `process` of its own, and forgets its modules when the file ends;
 * the worker process's own global and process outlive them, so the browser is kept there and killed on the worker's
 * exit (and by the kernel, should the worker be killed: `tiedToThisProcess`).
 */
const worker = {
  global: runInThisContext('globalThis') as Record<symbol, Promise<WorkerChromium> | undefined>,
  process: runInThisContext('process') as NodeJS.Process,
};
const KEY = Symbol.for('readiness.report.test-chromium');

const logger = createLogger({ name: 'report-test-chromium', level: 'silent' });

/**
 * Connects to the one Chromium of this jest worker, launched by the first report test file that asks and reused by
 * every later one in the worker. For renderers whose tests do not depend on owning their browser (its process, its
 * crash, its idle close): `RendererOptions.connect` or `ReportOptions.connectBrowser`. Each connection is the
 * renderer's to disconnect; the browser stays for the next file.
 */
export async function connectSharedChromium(): Promise<Browser> {
  const known = (worker.global[KEY] ??= launchOnce());
  let chromium = await known;
  if (chromium.child.exitCode !== null || chromium.child.signalCode !== null) {
    if (worker.global[KEY] === known) worker.global[KEY] = launchOnce();
    chromium = await worker.global[KEY]!;
  }
  return puppeteer.connect({ browserWSEndpoint: chromium.endpoint, protocolTimeout: 60_000 });
}

/** A launch that failed is not remembered: the next file (or the renderer's next attempt) launches again. */
function launchOnce(): Promise<WorkerChromium> {
  const launching = launch();
  launching.catch(() => {
    if (worker.global[KEY] === launching) worker.global[KEY] = undefined;
  });
  return launching;
}

/** Chromium with the flags `puppeteer.launch` gives it, on a free debugging port, its profile in a folder of its own. */
async function launch(): Promise<WorkerChromium> {
  const { executablePath, args, env } = await chooseBrowser({
    bundled: false,
    bundledDir: '/nonexistent',
    logger,
  });
  const profile = mkdtempSync(path.join(tmpdir(), 'report-test-chromium-'));
  const flags = puppeteer.defaultArgs({ headless: true, args, userDataDir: profile });
  const child = spawn(tiedToThisProcess(executablePath), [...flags, '--remote-debugging-port=0'], {
    env: { ...worker.process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  worker.process.once('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(profile, { recursive: true, force: true });
  });
  const stderr = child.stderr!;
  const endpoint = await new Promise<string>((resolve, reject) => {
    let said = '';
    const listen = (chunk: Buffer) => {
      said += chunk.toString();
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(said);
      if (found) resolve(found[1]!);
    };
    stderr.on('data', listen);
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(new Error(`Chromium stopped before it listened (${signal ?? code}): ${said.slice(-500)}`)),
    );
  });
  // From now on stderr is drained, so a chatty browser never blocks on a full pipe, and neither holds the worker open;
  // no listener of this file's is left on them, the file may be gone when the browser next speaks or stops.
  stderr.removeAllListeners('data');
  child.removeAllListeners('exit');
  stderr.resume();
  (stderr as unknown as { unref(): void }).unref();
  child.unref();
  return { endpoint, child };
}

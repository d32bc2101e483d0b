import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { promisify } from 'node:util';
import type { Logger } from '@readiness/kit/logger';
import { bundledChromiumArgs, prepareBundledChromium } from './bundled-chromium';

const run = promisify(execFile);

export type BrowserSource = 'PUPPETEER_EXECUTABLE_PATH' | 'system' | '@sparticuz/chromium';

/** The browser the renderer launches, and why this one. */
export interface BrowserChoice {
  source: BrowserSource;
  executablePath: string;
  version: string;
  args: string[];
  env?: Record<string, string>;
}

/** Where Debian, Ubuntu and Google put their browsers. */
export const SYSTEM_BROWSERS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/**
 * Flags for every browser: no GPU, no first-run chores, and no sandbox of Chromium's own when running as root or
 * when `sandbox` is false. A container without capabilities under the runtime's default seccomp profile (the chart's
 * pods, the image run by podman or Docker) cannot create the namespaces that sandbox needs, and Chromium would not
 * start; there the container is the boundary, and the pages rendered are the service's own templates.
 */
export function baseArgs(sandbox = true): string[] {
  const args = ['--disable-gpu', '--no-first-run', '--no-default-browser-check', '--disable-dev-shm-usage'];
  if (!sandbox || process.getuid?.() === 0) args.push('--no-sandbox');
  return args;
}

/** Thrown when PUPPETEER_EXECUTABLE_PATH names a browser that does not run: the service refuses to start. */
export class UnusableBrowserError extends Error {
  override name = 'UnusableBrowserError';
}

async function versionOf(executablePath: string): Promise<string> {
  accessSync(executablePath, constants.X_OK);
  const { stdout } = await run(executablePath, ['--version'], { timeout: 15_000 });
  const version = stdout.trim();
  if (!/\d+\.\d+/.test(version)) throw new Error(`"${executablePath} --version" printed no version`);
  return version;
}

/**
 * Picks the browser: PUPPETEER_EXECUTABLE_PATH when set (it must run, else `UnusableBrowserError`), else the
 * system's Chromium, else on Linux x64 the Chromium that `@sparticuz/chromium` ships, unpacked under `bundledDir`.
 * Throws when there is none.
 */
export async function chooseBrowser(options: {
  executablePath?: string;
  systemBrowsers?: readonly string[];
  bundled: boolean;
  bundledDir: string;
  /** Chromium's own sandbox (PDF_CHROMIUM_SANDBOX); true unless said otherwise. */
  sandbox?: boolean;
  logger: Logger;
}): Promise<BrowserChoice> {
  if (options.executablePath) {
    try {
      const version = await versionOf(options.executablePath);
      return {
        source: 'PUPPETEER_EXECUTABLE_PATH',
        executablePath: options.executablePath,
        version,
        args: baseArgs(options.sandbox),
      };
    } catch (err) {
      throw new UnusableBrowserError(
        `PUPPETEER_EXECUTABLE_PATH=${options.executablePath} does not run: ${(err as Error).message}`,
      );
    }
  }
  const tried: string[] = [];
  for (const candidate of options.systemBrowsers ?? SYSTEM_BROWSERS) {
    try {
      return {
        source: 'system',
        executablePath: candidate,
        version: await versionOf(candidate),
        args: baseArgs(options.sandbox),
      };
    } catch (err) {
      tried.push(`${candidate}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  if (options.bundled) {
    try {
      const chromium = await prepareBundledChromium({ baseDir: options.bundledDir, logger: options.logger });
      return {
        source: '@sparticuz/chromium',
        executablePath: chromium.executablePath,
        version: chromium.version,
        env: chromium.env,
        args: [...new Set([...bundledChromiumArgs(), ...baseArgs(options.sandbox)])],
      };
    } catch (err) {
      tried.push(`@sparticuz/chromium: ${(err as Error).message}`);
    }
  }
  throw new Error(`no usable Chromium (${tried.join('; ')})`);
}

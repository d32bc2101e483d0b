import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createBrotliDecompress } from 'node:zlib';
import tar from 'tar-fs';
import type { Logger } from '@readiness/kit/logger';

const run = promisify(execFile);

/** What launching the Chromium of `@sparticuz/chromium` needs besides the binary. */
export interface BundledChromium {
  executablePath: string;
  version: string;
  /** FONTCONFIG_PATH (its own fonts.conf), and LD_LIBRARY_PATH when the system lacks the NSS libraries. */
  env: Record<string, string>;
}

/**
 * The flags `@sparticuz/chromium` recommends, less those this product does not accept: `--single-process` (one
 * crash takes every page down, and it leaks), and the ones that turn off the browser's own security
 * (`--disable-web-security`, `--allow-running-insecure-content`, `--disable-site-isolation-trials`).
 */
const REFUSED_FLAGS = [
  '--single-process',
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--disable-site-isolation-trials',
  '--headless',
];

export function bundledChromiumArgs(): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const chromium = require('@sparticuz/chromium') as { args: string[]; setGraphicsMode: boolean };
  chromium.setGraphicsMode = false;
  return chromium.args.filter(
    (arg) => !REFUSED_FLAGS.some((flag) => arg === flag || arg.startsWith(`${flag}=`)),
  );
}

/** The package's folder and version, or undefined when it is not installed. */
export function bundledChromiumPackage(): { dir: string; version: string } | undefined {
  try {
    // The package exports only its code (build/cjs/index.cjs); its folder is two levels above.
    const dir = path.resolve(path.dirname(require.resolve('@sparticuz/chromium')), '..', '..');
    const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      version: string;
    };
    return { dir, version };
  } catch {
    return undefined;
  }
}

const LOCK_STALE_MS = 10 * 60_000;
const COMPLETE = '.complete';

async function withLock<T>(lockFile: string, work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      const handle = await fs.open(lockFile, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const stat = await fs.stat(lockFile).catch(() => undefined);
      // A lock older than any extraction belongs to a process that died holding it.
      if (stat && Date.now() - stat.mtimeMs > LOCK_STALE_MS) await fs.rm(lockFile, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await work();
  } finally {
    await fs.rm(lockFile, { force: true });
  }
}

/** A folder only this user can write to; anything else (a planted folder, another user's) is refused. */
async function privateFolder(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const stat = await fs.lstat(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0) {
    throw new Error(`${dir} is not a private folder of this user; refusing to run a browser from it`);
  }
}

async function inflateFile(source: string, target: string): Promise<void> {
  await pipeline(
    createReadStream(source),
    createBrotliDecompress({ chunkSize: 2 ** 21 }),
    createWriteStream(target, { mode: 0o700 }),
  );
}

async function inflateTar(source: string, target: string): Promise<void> {
  await fs.mkdir(target, { recursive: true, mode: 0o700 });
  await pipeline(createReadStream(source), createBrotliDecompress(), tar.extract(target));
}

async function chromiumVersion(executablePath: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await run(executablePath, ['--version'], {
    timeout: 15_000,
    env: { ...process.env, ...env },
  });
  return stdout.trim();
}

/** Libraries the binary needs that the system does not have (`ldd` says "not found"). */
async function missingLibraries(executablePath: string, env: Record<string, string>): Promise<string[]> {
  try {
    const { stdout } = await run('ldd', [executablePath], {
      timeout: 15_000,
      env: { ...process.env, ...env },
    });
    return stdout
      .split('\n')
      .filter((line) => line.includes('not found'))
      .map((line) => line.trim().split(/\s+/)[0] ?? line.trim());
  } catch {
    return [];
  }
}

/**
 * Unpacks the Chromium that `@sparticuz/chromium` ships into `${baseDir}/<version>` (private to this user, under a
 * lock, marked complete only once every part is written) and checks that it runs. The package's own
 * `executablePath()` is not used: it unpacks into the shared temporary folder and runs whatever `/tmp/chromium`
 * already holds, a half-written file, one another user planted, or an older version.
 */
export async function prepareBundledChromium(options: {
  baseDir: string;
  logger: Logger;
}): Promise<BundledChromium> {
  const pkg = bundledChromiumPackage();
  if (!pkg) throw new Error('the npm package @sparticuz/chromium is not installed');
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `@sparticuz/chromium ships a Linux x64 browser; this is ${process.platform} ${process.arch}`,
    );
  }
  await privateFolder(options.baseDir);
  const dir = path.join(options.baseDir, pkg.version);
  const executablePath = path.join(dir, 'chromium');
  const env: Record<string, string> = { FONTCONFIG_PATH: path.join(dir, 'fonts') };
  const bin = path.join(pkg.dir, 'bin');
  const major = pkg.version.split('.')[0]!;

  return withLock(`${dir}.lock`, async () => {
    if (existsSync(path.join(dir, COMPLETE))) {
      try {
        const version = await ready(executablePath, dir, env, major);
        return { executablePath, version, env };
      } catch (err) {
        options.logger.warn({ err, dir }, 'the unpacked Chromium does not run; unpacking it again');
      }
    }
    await fs.rm(dir, { recursive: true, force: true });
    await privateFolder(dir);
    const started = Date.now();
    await Promise.all([
      inflateFile(path.join(bin, 'chromium.br'), executablePath),
      // The GL libraries sit beside the binary, where Chromium looks for them.
      inflateTar(path.join(bin, 'swiftshader.tar.br'), dir),
      inflateTar(path.join(bin, 'fonts.tar.br'), path.join(dir, 'fonts')),
      inflateTar(path.join(bin, 'al2023.tar.br'), path.join(dir, 'nss')),
    ]);
    // Its fonts.conf names /tmp/fonts; this one names the folder just unpacked.
    await fs.writeFile(
      path.join(dir, 'fonts', 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${path.join(dir, 'fonts', 'fonts')}</dir>\n  <cachedir>${path.join(dir, 'fonts', 'cache')}</cachedir>\n</fontconfig>\n`,
      { mode: 0o600 },
    );
    const version = await ready(executablePath, dir, env, major);
    await fs.writeFile(path.join(dir, COMPLETE), version, { mode: 0o600 });
    options.logger.info(
      { dir, version, ms: Date.now() - started },
      'unpacked the Chromium of @sparticuz/chromium',
    );
    return { executablePath, version, env };
  });
}

/** Adds the shipped NSS libraries when the system lacks them, then checks the binary answers `--version`. */
async function ready(executablePath: string, dir: string, env: Record<string, string>, major: string) {
  const missing = await missingLibraries(executablePath, env);
  if (missing.length > 0) {
    const lib = path.join(dir, 'nss', 'lib');
    env.LD_LIBRARY_PATH = [lib, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
    const still = await missingLibraries(executablePath, env);
    if (still.length > 0) throw new Error(`Chromium needs libraries this system lacks: ${still.join(', ')}`);
  }
  const version = await chromiumVersion(executablePath, env);
  if (!version.includes(` ${major}.`)) throw new Error(`expected Chromium ${major}, found "${version}"`);
  return version;
}

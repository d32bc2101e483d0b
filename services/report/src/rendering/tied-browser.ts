import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SETPRIV_PLACES = ['/usr/bin/setpriv', '/bin/setpriv'];

/** This product's browser folders in the temporary folder: `readiness-browser-<pid of the service>-<random>`. */
const WORK_FOLDER = /^readiness-browser-(\d+)-/;
/** The profiles puppeteer makes when it is given none; a browser killed before puppeteer closed it leaves one. */
const PUPPETEER_PROFILE = /^puppeteer_dev_chrome_profile-/;

/**
 * Where one renderer's browser keeps its files: the launcher script and the browser's profile, in one folder of the
 * temporary folder named after this process. The folder is removed when the renderer closes and when the process
 * exits; a process killed outright leaves it, and the next start removes it (`sweepLeftBrowserFolders`).
 */
export interface BrowserFolder {
  /** The executable to launch: the browser behind a launcher that ties it to this process, where Linux allows it. */
  executablePath: string;
  /** The browser's profile folder, emptied before each launch. */
  profileDir(): string;
  /** The browser's own temporary folder (its TMPDIR), for what Chromium makes there (`org.chromium.Chromium.*`). */
  tmpDir: string;
  remove(): void;
}

/**
 * The browser's executable behind a launcher that ties it to this process where Linux allows it: `setpriv
 * --pdeathsig=SIGKILL` makes the kernel kill the browser when the process that launched it dies, even by SIGKILL,
 * so no orphaned Chromium outlives a killed service (its renderers follow their browser). Elsewhere, or without
 * setpriv, the executable itself.
 */
export function browserFolder(executablePath: string, tmpDir = os.tmpdir()): BrowserFolder {
  sweepLeftBrowserFolders(tmpDir);
  const dir = mkdtempSync(path.join(tmpDir, `readiness-browser-${process.pid}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  const setpriv = process.platform === 'linux' ? SETPRIV_PLACES.find((p) => existsSync(p)) : undefined;
  let launcher = executablePath;
  if (setpriv) {
    launcher = path.join(dir, 'chromium');
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    writeFileSync(
      launcher,
      `#!/bin/sh\nexec ${quote(setpriv)} --pdeathsig=SIGKILL -- ${quote(executablePath)} "$@"\n`,
      {
        mode: 0o700,
      },
    );
  }
  const browserTmp = path.join(dir, 'tmp');
  mkdirSync(browserTmp, { mode: 0o700 });
  return {
    executablePath: launcher,
    tmpDir: browserTmp,
    profileDir() {
      const profile = path.join(dir, 'profile');
      // A browser that crashed leaves its lock and caches; each launch starts from an empty profile.
      rmSync(profile, { recursive: true, force: true });
      return profile;
    },
    remove() {
      process.removeListener('exit', remove);
      remove();
    },
  };
}

/**
 * Removes the browser folders that processes no longer running left in the temporary folder: this product's own
 * (named after the process that made them) and the profiles puppeteer made for a browser that was killed (their
 * `SingletonLock` names the host and process of the browser that held them). Folders of running processes, and of
 * other hosts sharing the folder, are left alone.
 */
export function sweepLeftBrowserFolders(tmpDir = os.tmpdir()): string[] {
  let names: string[];
  try {
    names = readdirSync(tmpDir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const full = path.join(tmpDir, name);
    const own = WORK_FOLDER.exec(name);
    const left = own ? !isRunning(Number(own[1])) : PUPPETEER_PROFILE.test(name) && profileAbandoned(full);
    if (!left) continue;
    try {
      rmSync(full, { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Another user's folder, or one removed meanwhile: not ours to insist on.
    }
  }
  return removed;
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A profile with no lock may be one whose browser is starting this moment; it is left alone for this long. */
const UNLOCKED_PROFILE_GRACE_MS = 10 * 60_000;

/**
 * A puppeteer profile whose browser is gone: a lock naming a process of this host that is not running, or no lock
 * for longer than a browser takes to start.
 */
function profileAbandoned(profile: string): boolean {
  let lock: string;
  try {
    lock = readlinkSync(path.join(profile, 'SingletonLock'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return false;
    try {
      return Date.now() - statSync(profile).mtimeMs > UNLOCKED_PROFILE_GRACE_MS;
    } catch {
      return false;
    }
  }
  const at = lock.lastIndexOf('-');
  const host = lock.slice(0, at);
  const pid = Number(lock.slice(at + 1));
  return host === os.hostname() && Number.isInteger(pid) && !isRunning(pid);
}

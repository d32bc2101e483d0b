import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@readiness/kit/logger';
import { eventually } from '@readiness/testing';
import { chooseBrowser } from '../src/rendering/browser-choice';
import { createRenderer } from '../src/rendering/renderer';
import { sweepLeftBrowserFolders } from '../src/rendering/tied-browser';
import { loadFontFaces } from '../src/domain/templates/fonts';

jest.setTimeout(120_000);

const logger = createLogger({ name: 'browser-folders-test', level: 'silent' });

/** A renderer on the system's Chromium whose browser keeps its folder in `tmpDir`. */
const rendererIn = (tmpDir: string) =>
  createRenderer({
    tmpDir,
    choose: () => chooseBrowser({ bundled: false, bundledDir: '/nonexistent', logger }),
    fontFaces: loadFontFaces(),
    poolSize: 1,
    timeoutMs: 10_000,
    logger,
  });

/** The id of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid;
}

describe('the PDF browser’s folders in the temporary folder', () => {
  let tmp: string;

  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'browser-folders-'));
  });

  afterEach(() => {
    rmSync(tmp, { recursive: true, force: true });
  });

  it('when folders of ended processes are left, then a sweep removes them and keeps those of running ones', () => {
    const gone = deadPid();
    const host = os.hostname();
    const folder = (name: string, lock?: string) => {
      mkdirSync(path.join(tmp, name));
      if (lock) symlinkSync(lock, path.join(tmp, name, 'SingletonLock'));
    };
    folder(`readiness-browser-${gone}-a1`);
    folder(`readiness-browser-${process.pid}-b2`);
    folder('puppeteer_dev_chrome_profile-dead', `${host}-${gone}`);
    folder('puppeteer_dev_chrome_profile-live', `${host}-${process.pid}`);
    folder('puppeteer_dev_chrome_profile-elsewhere', `another-host-${gone}`);
    folder('puppeteer_dev_chrome_profile-starting');
    folder('puppeteer_dev_chrome_profile-old');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(path.join(tmp, 'puppeteer_dev_chrome_profile-old'), hourAgo, hourAgo);
    folder('unrelated-folder');

    const removed = sweepLeftBrowserFolders(tmp);

    expect(removed.sort()).toEqual(
      [
        `readiness-browser-${gone}-a1`,
        'puppeteer_dev_chrome_profile-dead',
        'puppeteer_dev_chrome_profile-old',
      ].sort(),
    );
    expect(readdirSync(tmp).sort()).toEqual(
      [
        `readiness-browser-${process.pid}-b2`,
        'puppeteer_dev_chrome_profile-live',
        'puppeteer_dev_chrome_profile-elsewhere',
        'puppeteer_dev_chrome_profile-starting',
        'unrelated-folder',
      ].sort(),
    );
  });

  it('when a renderer runs, then its browser keeps everything in one folder of its own, removed when it closes', async () => {
    const renderer = rendererIn(tmp);
    await renderer.start();
    await renderer.render('<p>A page</p>');
    const during = readdirSync(tmp);
    expect(during).toHaveLength(1);
    expect(during[0]).toMatch(new RegExp(`^readiness-browser-${process.pid}-`));
    // The launcher, the profile and the browser's own temporary files (it was given this folder as its TMPDIR).
    expect(readdirSync(path.join(tmp, during[0]!))).toEqual(expect.arrayContaining(['profile', 'tmp']));

    await renderer.close();
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('when the service is killed outright, then the next start removes what it left', async () => {
    // A report service's renderer in a process of its own, killed with SIGKILL once its browser is up.
    const script = `
      const { createRenderer } = require(${JSON.stringify(require.resolve('../dist/rendering/renderer.js'))});
      const { chooseBrowser } = require(${JSON.stringify(require.resolve('../dist/rendering/browser-choice.js'))});
      const { createLogger } = require('@readiness/kit/logger');
      const { loadFontFaces } = require(${JSON.stringify(require.resolve('../dist/domain/templates/fonts.js'))});
      const logger = createLogger({ name: 'killed', level: 'silent' });
      const renderer = createRenderer({ choose: () => chooseBrowser({ bundled: false, bundledDir: '/nonexistent', logger }), fontFaces: loadFontFaces(), poolSize: 1, timeoutMs: 10000, logger });
      renderer.start().then(() => renderer.render('<p>up</p>')).then(() => console.log('up'));
    `;
    const child = spawn(process.execPath, ['-e', script], {
      cwd: path.resolve(__dirname, '..'),
      env: { ...process.env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('up') && resolve());
      child.on('exit', (code) => reject(new Error(`the renderer process ended early (${code})`)));
    });
    const left = readdirSync(tmp);
    expect(left).toEqual([expect.stringMatching(new RegExp(`^readiness-browser-${child.pid}-`))]);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // Its browser dies with it (tied by the kernel); the folder stays until the next start.
    await eventually(() => expect(readdirSync(tmp)).toEqual(left));

    const next = rendererIn(tmp);
    await next.start();
    try {
      expect(readdirSync(tmp)).toEqual([
        expect.stringMatching(new RegExp(`^readiness-browser-${process.pid}-`)),
      ]);
    } finally {
      await next.close();
    }
  });
});

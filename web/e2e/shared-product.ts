/*
 * One product and one Chromium for the whole browser lane. The e2e project's globalSetup starts them before the first
 * file and its globalTeardown stops them after the last; every file that runs with the default configuration
 * connects to both instead of starting its own (a product takes about half a minute to start on two cores). The
 * files share the product's data, so each keeps to its own students, admins and e-mail addresses, and the order
 * the lane runs them in (sequencer.js) puts the files that read the installation as a first start left it before
 * those that publish assessment versions.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserServer } from 'playwright-core';
import {
  SEED,
  SHARED_ENV,
  sharedProductLog,
  startProduct,
  type RunningProduct,
  type SharedHandles,
} from '../../deploy/all-in-one/test/launcher';

export { sharedHandles } from '../../deploy/all-in-one/test/launcher';

const ROOT = path.resolve(__dirname, '../..');

/**
 * What an LMS of a test needs: its URLs on plain http on loopback may be registered, and a page on
 * http://127.0.0.1 (any port: the test's LMS) may frame the student's page, which the product serves on
 * http://localhost, another site.
 */
export const LTI_TEST_ENV = {
  LTI_ALLOW_HTTP_LOOPBACK: 'true',
  LTI_FRAME_ANCESTORS: 'http://127.0.0.1:*',
};

/**
 * The shared product's settings: the defaults, but for the per-address sign-in and API limits, and an LMS of the
 * tests' own (LTI_TEST_ENV). Every file signs in from the one loopback address, so the lane as a whole makes more
 * sign-ins a minute than one person could; a file that tests a limit starts a product of its own with it.
 */
export const SHARED_PRODUCT_ENV = {
  SEED_ADMIN_EMAIL: SEED.email,
  SEED_ADMIN_PASSWORD: SEED.password,
  RATE_LIMIT_LOGIN: '1000',
  RATE_LIMIT_API: '100000',
  // A line forms only at an administrator's limit (waiting-room.browser.test.ts sets one): the lane's own load must
  // not put its students in line.
  WAITING_ROOM: 'limit-only',
  // The files that form a line (the waiting room's and the Live screen's) pause the background work while it lasts:
  // it resumes about 1.5 s after the line's flag has expired, so the next file's mails are not held back.
  BUS_YIELD_CHECK_MS: '500',
  ...LTI_TEST_ENV,
};

const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
/**
 * The browser the tests drive: CHROMIUM_PATH when set, else Debian's headless shell (package chromium-headless-shell,
 * which .ci/run installs), else Debian's Chromium. The headless shell is the same Chromium without the windowed
 * browser around it (what Playwright itself runs headless): the same page, about half the CPU of `chromium --headless`
 * (docs/testing.md, "Where the time goes").
 */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  // The binary itself: /usr/bin/chromium-headless-shell is a shell script that stays its parent.
  (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

interface Started {
  product: RunningProduct;
  browser: BrowserServer;
  file: string;
}
const started = globalThis as { __readinessShared?: Started };

/**
 * globalSetup: starts both, side by side, and writes where they are; nothing when the lane's files start products of
 * their own (`READINESS_E2E_SHARED=off`, tests/tools/run-lanes.mjs).
 */
export async function startShared(): Promise<void> {
  if (process.env[SHARED_ENV] === 'off') return;
  const missing = ['deploy/all-in-one/dist/main.js', 'web/dist/index.html'].filter(
    (file) => !existsSync(path.join(ROOT, file)),
  );
  if (missing.length > 0) throw new Error(`Missing ${missing.join(', ')}: run \`make build\` first.`);
  const [product, browser] = await Promise.allSettled([
    startProduct(SHARED_PRODUCT_ENV),
    chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
  ]);
  if (product.status === 'rejected' || browser.status === 'rejected') {
    if (product.status === 'fulfilled') await product.value.stop();
    if (browser.status === 'fulfilled') await browser.value.close();
    throw product.status === 'rejected' ? product.reason : (browser as PromiseRejectedResult).reason;
  }
  const folder = path.join(ROOT, 'test-results');
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `e2e-shared-${process.pid}.json`);
  const handles: SharedHandles = {
    url: product.value.url,
    wsEndpoint: browser.value.wsEndpoint(),
    dataDir: product.value.dataDir,
  };
  writeFileSync(file, JSON.stringify(handles));
  process.env[SHARED_ENV] = file;
  started.__readinessShared = { product: product.value, browser: browser.value, file };
}

/** globalTeardown: stops both; the product's output is kept beside the other test results. */
export async function stopShared(): Promise<void> {
  const shared = started.__readinessShared;
  if (!shared) return;
  delete started.__readinessShared;
  delete process.env[SHARED_ENV];
  writeFileSync(path.join(ROOT, `test-results/${sharedProductLog()}`), shared.product.output());
  await Promise.allSettled([shared.product.stop(), shared.browser.close()]);
  rmSync(shared.file, { force: true });
}

'use strict';
/**
 * `node bench/slow-link.js` (after `make build`): what a student on a slow mobile link and an admin on a poor
 * connection wait for, with Chromium's network throttling (400 ms round trip, 60 KB/s down and up) and an empty
 * cache, against `make start` on this machine.
 *
 *   1. the bytes on the wire of the student's welcome page (every request) and of the admin's Results screen;
 *   2. when the first thing is painted (the browser's first-contentful-paint) and when the screen's heading shows.
 *
 * Results replace this benchmark's section of docs/benchmarks.md and are printed.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { api, startAllInOne, writeSection } = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const RESULTS_FILE = path.join(ROOT, 'docs', 'benchmarks.md');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LINK = { latency: 400, bytesPerSecond: 60 * 1024 };
const ADMIN = { email: 'bench.owner@example.edu', password: 'bench-owner-password' };
const out = (line = '') => process.stdout.write(`${line}\n`);
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const paint = (ms) => (ms === null ? 'none' : s(ms));

/** A student's personal link, once the student service serves the seeded assessment to it. */
async function studentLink(base) {
  const { token } = await api(base, 'POST', '/api/auth/login', { json: ADMIN });
  const invited = await api(base, 'POST', '/api/admin/students/invite', {
    token,
    json: { name: 'Slow Link', email: 'slow.link@example.edu' },
  });
  const link = new URL(invited.student.inviteUrl).pathname;
  const inviteToken = decodeURIComponent(link.split('/').pop());
  for (let tries = 0; tries < 200; tries++) {
    const served = await api(base, 'GET', `/api/student/${encodeURIComponent(inviteToken)}/assessment`).then(
      () => true,
      () => false,
    );
    if (served) return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the student service never served the assessment');
}

/**
 * Loads `url` on a throttled link with an empty cache and measures until `ready` resolves: the bytes that crossed
 * the wire (compressed where the server compressed), the first contentful paint and the time to `ready`.
 */
async function loadThrottled(page, url, ready) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: LINK.latency,
    downloadThroughput: LINK.bytesPerSecond,
    uploadThroughput: LINK.bytesPerSecond,
  });
  let bytes = 0;
  let requests = 0;
  cdp.on('Network.loadingFinished', (event) => {
    bytes += event.encodedDataLength;
    requests += 1;
  });
  const started = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  await ready();
  const readyMs = Date.now() - started;
  const [firstPaintMs, contentfulMs] = await page.evaluate(() =>
    ['first-paint', 'first-contentful-paint'].map(
      (name) => performance.getEntriesByName(name)[0]?.startTime ?? null,
    ),
  );
  await cdp.detach();
  return { bytes, requests, firstPaintMs, contentfulMs, readyMs };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'readiness-slow-link-'));
  const product = await startAllInOne(dataDir, {
    SEED_ADMIN_EMAIL: ADMIN.email,
    SEED_ADMIN_PASSWORD: ADMIN.password,
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const link = await studentLink(product.url);
    const student = await (await browser.newContext({ baseURL: product.url })).newPage();
    const welcome = await loadThrottled(student, link, () =>
      student.getByRole('button', { name: 'Start Assessment' }).waitFor({ timeout: 120_000 }),
    );

    const context = await browser.newContext({ baseURL: product.url });
    const admin = await context.newPage();
    await admin.goto('/admin/login');
    await admin.getByLabel('Email').fill(ADMIN.email);
    await admin.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await admin.getByRole('button', { name: 'Sign In', exact: true }).click();
    await admin.waitForURL('**/admin/dashboard');
    const results = await loadThrottled(admin, '/admin/results', () =>
      admin.getByRole('heading', { level: 1, name: 'Results' }).waitFor({ timeout: 120_000 }),
    );

    const row = (what, m) =>
      `| ${what} | ${m.requests} | ${kb(m.bytes)} | ${paint(m.firstPaintMs)} | ${paint(m.contentfulMs)} | ${s(m.readyMs)} |`;
    const markdown = [
      '## A slow link: the welcome page and the Results screen',
      '',
      `Chromium's network throttling at ${LINK.latency} ms round trip and ${LINK.bytesPerSecond / 1024} KB/s each way, an empty`,
      'cache, `make start` on this machine (`node bench/slow-link.js`). Bytes are what crossed the wire, compressed',
      "where the server compressed; first paint is the browser's first-paint (the loading shell counts), first text its",
      "first-contentful-paint, and ready when the screen's heading or button shows, all from the navigation.",
      '',
      '| screen | requests | on the wire | first paint | first text | ready |',
      '| --- | --- | --- | --- | --- | --- |',
      row("the student's welcome page (Start Assessment shown)", welcome),
      row("the admin's Results screen (its heading shown), signed in", results),
      '',
      `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}).`,
    ].join('\n');
    out(markdown);
    if (process.env.BENCH_WRITE !== '0') writeSection(RESULTS_FILE, 'slow-link', markdown);
  } finally {
    await browser.close();
    await product.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});

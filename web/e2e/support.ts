/*
 * Shared pieces of the browser tests: Debian's Chromium driven by playwright-core, the product as
 * `make start` runs it (via the all-in-one launcher's test helper), the caught-mail inbox, and an axe
 * accessibility scan that fails on serious or critical findings.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import {
  api,
  createAdminPastFirstSignIn,
  SEED,
  sharedProduct,
  startProduct,
  type RunningProduct,
} from '../../deploy/all-in-one/test/launcher';
import { CHROMIUM, CHROMIUM_ARGS, sharedHandles } from './shared-product';

export { api, createAdminPastFirstSignIn, startProduct, type RunningProduct };

export const ROOT = path.resolve(__dirname, '../..');

export const SUPER = { name: 'Super Admin', ...SEED };

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 360, height: 740 };

/** The product and the web build must exist; say how to make them rather than failing obscurely. */
export function assertBuilt(): void {
  const missing = ['deploy/all-in-one/dist/main.js', 'web/dist/index.html'].filter(
    (file) => !existsSync(path.join(ROOT, file)),
  );
  if (missing.length > 0) {
    throw new Error(`Missing ${missing.join(', ')}: run \`npx tsc -b && npm run build -w web\` first.`);
  }
}

/** Starts the product with a known super admin; one instance serves a whole test file. */
export async function startSeededProduct(env: Record<string, string> = {}): Promise<RunningProduct> {
  assertBuilt();
  return startProduct({ SEED_ADMIN_EMAIL: SUPER.email, SEED_ADMIN_PASSWORD: SUPER.password, ...env });
}

/**
 * The product and a browser for a test file. With the default configuration (no `env`), the lane's shared ones
 * running (shared-product.ts) and no need of a product of its `own` (one whose data no other file touched), those: the product's `stop` then leaves it running and the browser's `close` only
 * disconnects this file. Otherwise both are started side by side for the file alone; if either fails to start the
 * other is shut again, so a failed start cannot leave a process behind that keeps jest from exiting.
 */
export async function startProductAndBrowser(
  env: Record<string, string> = {},
  options: { own?: boolean } = {},
): Promise<{ product: RunningProduct; browser: Browser }> {
  const shared = Object.keys(env).length === 0 && !options.own ? sharedHandles() : undefined;
  if (shared) {
    return {
      product: sharedProduct(shared.url, shared.dataDir),
      browser: await chromium.connect(shared.wsEndpoint),
    };
  }
  const [product, browser] = await Promise.allSettled([startSeededProduct(env), launchBrowser()]);
  if (product.status === 'fulfilled' && browser.status === 'fulfilled') {
    return { product: product.value, browser: browser.value };
  }
  if (product.status === 'fulfilled') await product.value.stop();
  if (browser.status === 'fulfilled') await browser.value.close();
  throw product.status === 'rejected' ? product.reason : (browser as PromiseRejectedResult).reason;
}

/** The product and the browser of one test file, and the pages its tests open. */
export interface FileProduct {
  readonly product: RunningProduct;
  readonly browser: Browser;
  /** The product's address. */
  readonly url: string;
  /** A page in a fresh context (newPage) at the product's address or `baseURL`, closed after the test. */
  open(
    viewport?: typeof DESKTOP,
    baseURL?: string,
  ): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }>;
  /** Closes `context`, opened by the test itself, after the test. */
  closeAfterTest(context: BrowserContext): BrowserContext;
  /** open()'s page alone. */
  page(viewport?: typeof DESKTOP, baseURL?: string): Promise<Page>;
  /** A new API token of the seeded super admin. */
  superToken(): Promise<string>;
  /**
   * Creates a regular admin through the API, as the super admin (with `superToken`, or a new one), past their first
   * sign-in, so their password is their own; returns their id.
   */
  createAdmin(admin: { name: string; email: string; password: string }, superToken?: string): Promise<string>;
}

/**
 * Registers a test file's hooks: the product and the browser started before its first test (startProductAndBrowser,
 * or `start`) and stopped after its last, and the contexts its tests open closed after each test.
 */
export function productForFile(
  start: () => Promise<{ product: RunningProduct; browser: Browser }> = () => startProductAndBrowser(),
): FileProduct {
  let started: { product: RunningProduct; browser: Browser } | undefined;
  const contexts: BrowserContext[] = [];
  const running = () => {
    if (!started) throw new Error('The product is not started yet: use it inside a test or a hook.');
    return started;
  };
  beforeAll(async () => {
    started = await start();
  }, 180_000);
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await started?.browser.close();
    await started?.product.stop();
  });
  const file: FileProduct = {
    get product() {
      return running().product;
    },
    get browser() {
      return running().browser;
    },
    get url() {
      return running().product.url;
    },
    async open(viewport = DESKTOP, baseURL = file.url) {
      const opened = await newPage(file.browser, baseURL, viewport);
      contexts.push(opened.context);
      return opened;
    },
    closeAfterTest(context) {
      contexts.push(context);
      return context;
    },
    async page(viewport, baseURL) {
      return (await file.open(viewport, baseURL)).page;
    },
    async superToken() {
      const session = await api<{ token: string }>(file.url, 'POST', '/api/auth/login', { body: SUPER });
      expect(session.status).toBe(200);
      return session.body.token;
    },
    async createAdmin(admin, superToken) {
      const token = superToken ?? (await file.superToken());
      return (await createAdminPastFirstSignIn(file.url, token, { ...admin, role: 'admin' }))._id;
    },
  };
  return file;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * A fresh context per test: no token in localStorage, no cookies. It asks for reduced motion, as
 * some visitors do, so that screens appear at once instead of fading in: what a test reads or an
 * accessibility scan measures then does not depend on how busy the machine is. Page errors and
 * failed console messages are kept so a test can show them when it fails.
 */
export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
  const context = await browser.newContext({ baseURL, viewport, reducedMotion: 'reduce' });
  // Expectations wait this long for the app to react; the product answers in milliseconds, but two
  // cores shared with the product's startup of other files, the image build and the lint can stall a render (a
  // CI machine at half its usual speed has taken over 15 s to show a dashboard fed by events).
  context.setDefaultTimeout(30_000);
  context.on('page', watchPage);
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('pageerror', (err) => consoleErrors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  return { context, page, consoleErrors };
}

// The pages a failing test leaves open, pictured by failure-environment.js, with what each said went wrong.
const openPages = new Map<Page, string[]>();
function watchPage(page: Page): void {
  const errors: string[] = [];
  openPages.set(page, errors);
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('close', () => openPages.delete(page));
}

/**
 * On a failed test (called by failure-environment.js): each open page's screenshot, text and console errors saved
 * under test-results/e2e-failures, and its address, opening text and errors printed, so a CI log says what the screen
 * showed (and why, when the page said so) instead of what the test waited for.
 */
async function pictureOpenPages(testName: string): Promise<void> {
  const folder = path.join(ROOT, 'test-results/e2e-failures');
  mkdirSync(folder, { recursive: true });
  const stem = `${path.basename(expect.getState().testPath ?? 'e2e')}-${testName}`
    .replace(/[^A-Za-z0-9.-]+/g, '-')
    .slice(0, 120);
  let index = 0;
  for (const [page, errors] of openPages) {
    index += 1;
    const file = path.join(folder, `${stem}-${index}`);
    const text = await page
      .evaluate(() => document.body?.innerText ?? '')
      .catch((err: unknown) => `(page text unreadable: ${String(err)})`);
    await page.screenshot({ path: `${file}.png`, fullPage: true }).catch(() => undefined);
    const said = errors.length > 0 ? `\nIts console errors:\n${errors.join('\n')}\n` : '';
    writeFileSync(`${file}.txt`, `${page.url()}\n\n${text}\n${said}`);
    const opening = text.replace(/\s+/g, ' ').trim().slice(0, 400);
    console.error(
      `Open page ${index} when "${testName}" failed: ${page.url()}\n${opening}\n${said.slice(0, 1_000)}(saved as ${file}.png)`,
    );
  }
}
(globalThis as { __readinessOnTestFailure?: (name: string) => Promise<void> }).__readinessOnTestFailure =
  pictureOpenPages;

/** Waits until the element is on screen (playwright-core has no web-first `expect`). */
export async function shown(locator: Locator, timeout?: number): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible', timeout });
  return locator;
}

/**
 * Waits for the completion page's result heading. Scoring is asynchronous: the submit waits a few seconds for
 * the result, then the page asks every two seconds, so on two cores shared with other suites the result may
 * take longer than a screen's usual wait (it comes through the student service's outbox, the broker and the
 * results service's), and a late one must not fail the step that consumed the attempt.
 */
export const resultShown = (page: Page, heading: 'Congratulations!' | 'Assessment Complete') =>
  shown(page.getByRole('heading', { level: 1, name: heading }), 60_000);

/**
 * Presses Submit Assessment and, when questions are left unanswered (optional ones), confirms the summary the
 * page asks first. Does not wait for the outcome.
 */
export async function submitAssessment(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Submit Assessment' }).click();
  const confirm = page
    .getByRole('dialog', { name: 'Submit your assessment?' })
    .getByRole('button', { name: 'Submit now' });
  const asked = await confirm.waitFor({ state: 'visible', timeout: 2_000 }).then(
    () => true,
    () => false,
  );
  if (asked) await confirm.click();
}

/** Waits until the page's path (and query) matches, comparing exactly when given a string. */
export async function atPath(page: Page, expected: string | RegExp): Promise<void> {
  await page.waitForURL((url) =>
    typeof expected === 'string' ? url.pathname + url.search === expected : expected.test(url.pathname),
  );
}

/** Fills the sign-in form and submits it; does not wait for the outcome. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Signs in from the login screen and waits for the dashboard. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/admin/login');
  await submitLogin(page, email, password);
  await atPath(page, '/admin/dashboard');
}

/**
 * A name as a mail's text carries it: between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, so a right-to-left
 * name cannot reorder the sentence around it (docs/languages.md, "Names").
 */
export const isolated = (name: string) => `\u2068${name}\u2069`;

/** A toast (react-toastify renders each as role=alert inside its container). */
export const toast = (page: Page, text: string | RegExp) => page.locator('.Toastify').getByText(text);

/**
 * Saves the assessment editor's changes: when translations are left to review (their English changed, in this save
 * or an earlier one), the editor asks first and the save goes ahead ("Save anyway"). Resolves on the saved toast.
 */
export async function saveAssessmentChanges(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save Changes' }).click();
  const ask = page.getByRole('dialog', { name: 'Save with translations to review?' });
  const saved = toast(page, 'Assessment updated successfully - New version created');
  await ask.or(saved).first().waitFor({ state: 'visible' });
  if (await ask.isVisible()) await ask.getByRole('button', { name: 'Save anyway' }).click();
  await shown(saved);
}

/**
 * Waits until nothing on the page is still moving into place (a dialog fading in, a toast sliding in),
 * so an accessibility scan measures colours as they settle rather than half-faded. Endless animations
 * (spinners) and a toast's progress bar (its timer, running for seconds) never settle and are left out.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => {
      const effect = animation.effect;
      const target = effect instanceof KeyframeEffect ? effect.target : null;
      return (
        animation.playState !== 'running' ||
        effect?.getComputedTiming().endTime === Infinity ||
        target?.closest('[role="progressbar"]') != null
      );
    }),
  );
}

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  date: string;
  /** The attachments' file names. */
  attachments: string[];
  attachmentDetails: { filename: string; contentType: string; size: number }[];
}

/** Polls the product's caught-mail list until a message to `recipient` that `accept`s arrives. */
export async function waitForMail(
  base: string,
  recipient: string,
  accept: (mail: CaughtMail) => boolean = () => true,
  timeoutMs = 20_000,
): Promise<CaughtMail> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const res = await fetch(`${base}/dev/mail`);
    const text = await res.text();
    last = `${res.status} ${res.headers.get('content-type')}: ${text.slice(0, 300)}`;
    // Anything but a JSON list (the web app's index.html, an error page) means no mail can be read yet.
    let list: CaughtMail[] = [];
    try {
      const body = JSON.parse(text) as CaughtMail[] | { mails: CaughtMail[] };
      list = (Array.isArray(body) ? body : body.mails) ?? [];
    } catch {
      list = [];
    }
    const found = list.find(
      (m) => m.to.some((to) => to.toLowerCase().includes(recipient.toLowerCase())) && accept(m),
    );
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No mail to ${recipient} arrived within ${timeoutMs} ms; GET /dev/mail answered ${last}`);
}

/** The assessment link an invitation mail carries, on the product's public origin. */
export function invitationLinkIn(mail: CaughtMail): URL {
  const found = /^Open your assessment:\s*(\S+)\s*$/im.exec(mail.text)?.[1];
  if (!found) throw new Error(`The mail carries no assessment link:\n${mail.text}`);
  return new URL(found);
}

/**
 * Asks `probe` again every 250 ms until it answers something `accept`s, for effects that travel by event
 * (a result recorded, a deleted student's copies erased); fails with the last answer after `timeoutMs`.
 */
export async function eventually<T>(
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`${what} did not happen within ${timeoutMs} ms; last seen: ${JSON.stringify(value)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Whether this run regenerates the pictures in docs/screenshots (`SCREENSHOTS=1`). */
export const SCREENSHOTS = process.env.SCREENSHOTS === '1';
export const SCREENSHOT_DIR = path.join(ROOT, 'docs/screenshots');

/**
 * Saves `docs/screenshots/<name>.png` when SCREENSHOTS=1 (else does nothing). As the other pictures there: the
 * desktop ones show the window as a person sees it, the phone ones the whole scrolled page unless an overlay (a
 * dialog) is open, since that is all there is to see.
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  width: 'desktop' | 'mobile',
  overlay = false,
): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`),
    fullPage: width === 'mobile' && !overlay,
    animations: 'disabled',
  });
}

/** The temporary password a reset mail carries. */
export function temporaryPasswordIn(mail: CaughtMail): string {
  // Its own line, taken whole: the password may begin or end with a symbol such as '!' or '-'.
  const found = /^\s*temporary password:\s*(\S+)\s*$/im.exec(mail.text)?.[1];
  if (!found) throw new Error(`The mail carries no temporary password:\n${mail.text}`);
  return found;
}

/** axe-core's own script, read once for the run. */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations on the page as it stands. axe runs inside the page's own document: the product's pages have
 * no frames of another origin. Its 550 KB script is evaluated once a document (a navigation or a reload starts
 * afresh), not twice a scan as @axe-core/playwright's AxeBuilder did (measured: about 0.35 s of the renderer's CPU and
 * 0.1 s of the test's a scan, against 0.08 s and 0.03 s once the script is in). Only the violations are gathered,
 * which is all the check reads.
 */
async function axeViolations(page: Page): Promise<AxeResults['violations']> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const options: RunOptions = { resultTypes: ['violations'] };
  return page.evaluate(
    async (runOptions) =>
      (await (window as unknown as { axe: typeof import('axe-core') }).axe.run(document, runOptions))
        .violations,
    options,
  );
}

/**
 * Runs axe on the page once it has settled and fails on serious or critical violations, listing each
 * with the elements it hit so the fix is obvious from the test output.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  await animationsSettled(page);
  const violations = await axeViolations(page);
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = blocking
    .map(
      (v) =>
        `- [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n` +
        v.nodes
          .slice(0, 5)
          .map(
            (n) => `    ${n.target.join(' ')}\n      ${(n.failureSummary ?? '').replace(/\n/g, '\n      ')}`,
          )
          .join('\n'),
    )
    .join('\n');
  if (blocking.length > 0) {
    throw new Error(`Accessibility violations on ${screen} (${page.url()}):\n${report}`);
  }
}

/**
 * What reaches past the window's right edge once the layout settled after a resize (the sidebar slides away first):
 * waits up to 5 s for the page to fit, then names what still does not (empty when it fits).
 */
export async function overflowing(page: Page): Promise<string[]> {
  const fits = await page
    .waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, null, {
      timeout: 5_000,
    })
    .then(() => true)
    .catch(() => false);
  if (fits) return [];
  return page.evaluate(() => {
    const past = Array.from(document.querySelectorAll('body *'))
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth)
      .map((e) => `${e.tagName}.${e.className}`)
      .slice(0, 5);
    return past.length > 0
      ? past
      : [`the page, ${document.documentElement.scrollWidth - window.innerWidth} px too wide`];
  });
}

import { AppError } from '@readiness/kit/errors';
import type { Logger } from '@readiness/kit/logger';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { UnusableBrowserError, type BrowserChoice } from './browser-choice';
import { checkFonts, fontTestPage } from './font-check';
import { createPagePool, noBrowser } from './page-pool';
import { tiedToThisProcess } from './tied-browser';

export { embeddedFonts } from './font-check';

export interface RenderOptions {
  landscape?: boolean;
}

export interface RendererStatus {
  available: boolean;
  source?: string;
  executablePath?: string;
  version?: string;
  /** Why PDFs cannot be rendered now, when they cannot. */
  problem?: string;
  /** The browser was closed after a quiet spell; the next render launches it again. */
  asleep?: boolean;
}

/**
 * HTML to PDF in one Chromium with a bounded pool of pages (see `createPagePool`); a
 * render that takes longer than the timeout fails and its page is replaced; a browser that crashes or
 * disconnects is launched again. Without a browser, `render` throws a 503 and the service carries on. After
 * `idleMs` without a render the browser is closed (an idle Chromium holds about 350 MB) and the next render launches
 * it again, about a second later than it would have started.
 */
export interface Renderer {
  /** Chooses and launches the browser and renders a test PDF; throws only when PUPPETEER_EXECUTABLE_PATH is unusable. */
  start(): Promise<void>;
  render(html: string, options?: RenderOptions): Promise<Buffer>;
  status(): RendererStatus;
  /** Called each time a browser becomes usable (at start, after a relaunch). */
  onAvailable(listener: () => void): void;
  /** Requests the pages aborted since start (anything not data:). */
  blockedRequests(): number;
  /** The browser's process id while one runs (none while it sleeps). */
  browserPid(): number | undefined;
  /** Pages opened since start (the pool's, the replacements and the recycled ones). */
  pagesOpened(): number;
  close(): Promise<void>;
}

const RELAUNCH_DELAYS_MS = [1_000, 2_000, 5_000, 15_000, 60_000];

export function createRenderer(options: {
  choose: () => Promise<BrowserChoice>;
  fontFaces: string;
  poolSize: number;
  timeoutMs: number;
  /**
   * Renders a page does before it is closed and a fresh one takes its place: Chromium keeps part of each document's
   * memory in the page's renderer, so a page that is never closed grows with every PDF (about 0.5 MB each).
   */
  pageRenders?: number;
  /** Milliseconds without a render after which the browser is closed until the next one; 0 keeps it open. */
  idleMs?: number;
  logger: Logger;
}): Renderer {
  const { logger, poolSize, timeoutMs } = options;
  const pageRenders = options.pageRenders ?? 20;
  const idleMs = options.idleMs ?? 0;
  let asleep = false;
  let launching: Promise<void> | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let inFlight = 0;
  let browser: Browser | undefined;
  let choice: BrowserChoice | undefined;
  let problem: string | undefined = 'the browser has not started yet';
  let closing = false;
  let relaunchTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  const listeners: Array<() => void> = [];
  const pages = createPagePool({ browser: () => browser, poolSize, pageRenders, logger });

  async function renderOn(page: Page, html: string, renderOptions: RenderOptions): Promise<Buffer> {
    await page.setContent(html, { waitUntil: 'load', timeout: timeoutMs });
    const pdf = await page.pdf({
      format: 'A4',
      landscape: renderOptions.landscape ?? false,
      printBackground: true,
      preferCSSPageSize: true,
      timeout: timeoutMs,
    });
    return Buffer.from(pdf);
  }

  /** Closes the browser once nothing has been rendered for `idleMs`; the next render launches it again. */
  function armIdle(): void {
    clearTimeout(idleTimer);
    if (idleMs <= 0 || closing || !browser || inFlight > 0) return;
    idleTimer = setTimeout(() => void closeIdleBrowser(), idleMs);
    idleTimer.unref();
  }

  async function closeIdleBrowser(): Promise<void> {
    const current = browser;
    if (!current || inFlight > 0 || launching || closing) return;
    // The disconnect that follows is not a crash: `browser` no longer points at it.
    browser = undefined;
    pages.reset();
    asleep = true;
    logger.info(
      { idleSeconds: Math.round(idleMs / 1000) },
      'no PDF for a while: the browser is closed until the next one',
    );
    await current.close().catch(() => undefined);
  }

  async function render(html: string, renderOptions: RenderOptions = {}): Promise<Buffer> {
    inFlight += 1;
    clearTimeout(idleTimer);
    try {
      if (asleep) {
        asleep = false;
        await launch().catch(() => undefined);
      } else if (launching) {
        await launching.catch(() => undefined);
      }
      return await renderNow(html, renderOptions);
    } finally {
      inFlight -= 1;
      armIdle();
    }
  }

  async function renderNow(html: string, renderOptions: RenderOptions = {}): Promise<Buffer> {
    const page = await pages.acquire();
    let timer: NodeJS.Timeout | undefined;
    let healthy = false;
    try {
      const pdf = await withTimeout(renderOn(page, html, renderOptions), timeoutMs, (t) => {
        timer = t;
      });
      healthy = true;
      return pdf;
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (!browser) throw noBrowser(err);
      throw new AppError('pdf_failed', 'The PDF could not be prepared. Try again.', 503, { cause: err });
    } finally {
      clearTimeout(timer);
      pages.release(page, healthy);
    }
  }

  function dropBrowser(reason: string): void {
    browser = undefined;
    problem = reason;
    pages.reset();
  }

  function scheduleRelaunch(): void {
    if (closing || relaunchTimer) return;
    const delay = RELAUNCH_DELAYS_MS[Math.min(failures, RELAUNCH_DELAYS_MS.length - 1)]!;
    failures += 1;
    relaunchTimer = setTimeout(() => {
      relaunchTimer = undefined;
      void launch().catch(() => undefined);
    }, delay);
    relaunchTimer.unref();
  }

  /** One launch at a time: a wake, a relaunch after a crash and the start share it. */
  function launch(): Promise<void> {
    launching ??= launchBrowser().finally(() => {
      launching = undefined;
    });
    return launching;
  }

  let tiedPath: string | undefined;
  async function launchBrowser(): Promise<void> {
    // Only a browser closed for being idle leaves no problem behind: the start and a relaunch after a crash do.
    const waking = problem === undefined;
    try {
      choice ??= await options.choose();
      const launched = await launchTied(
        choice,
        (tiedPath ??= tiedToThisProcess(choice.executablePath)),
        timeoutMs,
      );
      browser = launched;
      launched.on('disconnected', () => {
        if (browser !== launched || closing) return;
        logger.error(
          { executablePath: choice?.executablePath },
          'the PDF browser stopped; launching it again',
        );
        dropBrowser('the browser stopped; it is being launched again');
        scheduleRelaunch();
      });
      await checkFonts(await renderNow(fontTestPage(options.fontFaces)));
      problem = undefined;
      failures = 0;
      armIdle();
      if (waking) {
        logger.debug({ pid: launched.process()?.pid }, 'the PDF browser is launched again for a render');
        return;
      }
      announce(choice, poolSize, logger);
      for (const listener of listeners) listener();
    } catch (err) {
      if (err instanceof UnusableBrowserError) throw err;
      const current = browser;
      dropBrowser(`no browser could start: ${(err as Error).message}`);
      await current?.close().catch(() => undefined);
      logger.error({ err }, `${problem}; PDF calls answer 503 until one starts`);
      // A failed choice is made again next time: a browser may be installed meanwhile.
      if (!current) choice = undefined;
      scheduleRelaunch();
    }
  }

  return {
    start: launch,
    render,
    status: () => ({
      available: (Boolean(browser) || asleep) && !problem,
      asleep,
      source: choice?.source,
      executablePath: choice?.executablePath,
      version: choice?.version,
      problem,
    }),
    onAvailable(listener) {
      listeners.push(listener);
    },
    blockedRequests: pages.blockedRequests,
    browserPid: () => browser?.process()?.pid,
    pagesOpened: pages.pagesOpened,
    async close() {
      closing = true;
      asleep = false;
      clearTimeout(relaunchTimer);
      clearTimeout(idleTimer);
      const current = browser;
      dropBrowser('the service is stopping');
      await current?.close().catch(() => undefined);
    },
  };
}

/** Chromium, headless, tied to this process (it dies with it), with signals left to the service. */
function launchTied(choice: BrowserChoice, executablePath: string, timeoutMs: number): Promise<Browser> {
  return puppeteer.launch({
    executablePath,
    headless: true,
    args: choice.args,
    env: choice.env ? { ...process.env, ...choice.env } : undefined,
    protocolTimeout: Math.max(timeoutMs * 2, 30_000),
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/** Fails with a 503 after `ms`; the timer is handed out so the caller clears it once the work ends. */
function withTimeout<T>(work: Promise<T>, ms: number, timerOf: (timer: NodeJS.Timeout) => void): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timerOf(
        setTimeout(
          () => reject(new AppError('pdf_timeout', 'The PDF took too long to prepare. Try again.', 503)),
          ms,
        ),
      );
    }),
  ]);
}

function announce(choice: BrowserChoice, pages: number, logger: Logger) {
  logger.info(
    { browser: choice.source, executablePath: choice.executablePath, version: choice.version, pages },
    `PDFs are rendered with ${choice.source === 'system' ? 'the system Chromium' : choice.source} (${choice.version})`,
  );
}

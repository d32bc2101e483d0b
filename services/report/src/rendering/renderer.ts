import { AppError } from '@readiness/kit/errors';
import type { Logger } from '@readiness/kit/logger';
import puppeteer, { type Browser, type HTTPRequest, type Page } from 'puppeteer-core';
import { EMBEDDED_FONT_NAMES, SANS, SERIF } from '../domain/templates/fonts';
import { UnusableBrowserError, type BrowserChoice } from './browser-choice';
import { tiedToThisProcess } from './tied-browser';

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
 * HTML to PDF in one Chromium with a bounded pool of pages. Pages run no JavaScript and load nothing but data:
 * URLs (every other request, `file://`, metadata addresses and internal hosts included, is aborted and counted); a
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

export const NO_BROWSER_MESSAGE =
  'PDF generation is temporarily unavailable: no browser is running. Try again shortly.';

const RELAUNCH_DELAYS_MS = [1_000, 2_000, 5_000, 15_000, 60_000];

/** A PDF whose text uses the product's fonts, and the proof the browser embedded them. */
const TEST_PAGE = `<!doctype html><html><head><meta charset="utf-8"><style>%FONTS%</style></head>
<body><p style="font-family:${SANS}">Readiness test page</p><p style="font-family:${SERIF}">Certificate</p></body></html>`;

export function embeddedFonts(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  if (!/\/FontFile[23]?\s/.test(text)) return [];
  return [...text.matchAll(/\/BaseFont\s*\/(?:[A-Z]{6}\+)?([^\s/<>[\]]+)/g)].map((m) => m[1]!);
}

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
  const rendersOf = new WeakMap<Page, number>();
  let pagesOpened = 0;
  let browser: Browser | undefined;
  let choice: BrowserChoice | undefined;
  let problem: string | undefined = 'the browser has not started yet';
  let closing = false;
  let relaunchTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  let blocked = 0;
  const listeners: Array<() => void> = [];
  const idle: Page[] = [];
  let open = 0;
  const waiting: Array<(page: Page | Error) => void> = [];
  const maxWaiting = poolSize * 50;

  const onRequest = (request: HTTPRequest) => {
    if (request.url().startsWith('data:')) {
      void request.continue();
      return;
    }
    blocked += 1;
    logger.warn({ url: request.url().slice(0, 200) }, 'a PDF page tried to load a resource; aborted');
    void request.abort('blockedbyclient');
  };

  async function newPage(current: Browser): Promise<Page> {
    const page = await current.newPage();
    pagesOpened += 1;
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    page.on('request', onRequest);
    return page;
  }

  async function acquire(): Promise<Page> {
    const current = browser;
    if (!current) throw new AppError('pdf_unavailable', NO_BROWSER_MESSAGE, 503);
    const page = idle.pop();
    if (page && !page.isClosed()) return page;
    if (open < poolSize) {
      open += 1;
      try {
        return await newPage(current);
      } catch (err) {
        open -= 1;
        throw new AppError('pdf_unavailable', NO_BROWSER_MESSAGE, 503, { cause: err });
      }
    }
    if (waiting.length >= maxWaiting) {
      throw new AppError('pdf_busy', 'Too many PDFs are being prepared. Try again shortly.', 503);
    }
    const next = await new Promise<Page | Error>((resolve) => waiting.push(resolve));
    if (next instanceof Error) throw next;
    return next;
  }

  function release(page: Page, healthy: boolean): void {
    if (!healthy || page.isClosed() || page.browser() !== browser) {
      open -= 1;
      void page.close().catch(() => undefined);
      const waiter = waiting.shift();
      if (waiter) {
        // The waiter gets a fresh page in place of the discarded one.
        acquire().then(waiter, (err: Error) => waiter(err));
      }
      return;
    }
    const waiter = waiting.shift();
    if (waiter) waiter(page);
    else idle.push(page);
  }

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
    idle.length = 0;
    open = 0;
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
    const page = await acquire();
    let timer: NodeJS.Timeout | undefined;
    let healthy = false;
    try {
      const pdf = await Promise.race([
        renderOn(page, html, renderOptions),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new AppError('pdf_timeout', 'The PDF took too long to prepare. Try again.', 503)),
            timeoutMs,
          );
        }),
      ]);
      healthy = true;
      return pdf;
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (!browser) throw new AppError('pdf_unavailable', NO_BROWSER_MESSAGE, 503, { cause: err });
      throw new AppError('pdf_failed', 'The PDF could not be prepared. Try again.', 503, { cause: err });
    } finally {
      clearTimeout(timer);
      const renders = (rendersOf.get(page) ?? 0) + 1;
      rendersOf.set(page, renders);
      // A worn page is released as an unhealthy one: closed, and a fresh page opened when next needed.
      release(page, healthy && renders < pageRenders);
    }
  }

  async function selfTest(): Promise<void> {
    const pdf = await renderNow(TEST_PAGE.replace('%FONTS%', options.fontFaces));
    const fonts = embeddedFonts(pdf);
    const missing = EMBEDDED_FONT_NAMES.filter((name) => !fonts.some((font) => font.startsWith(name)));
    if (missing.length > 0) {
      throw new Error(
        `the test PDF does not embed the product's fonts (${missing.join(', ')}); found ${fonts.join(', ') || 'none'}`,
      );
    }
  }

  function dropBrowser(reason: string): void {
    browser = undefined;
    problem = reason;
    idle.length = 0;
    open = 0;
    for (const waiter of waiting.splice(0)) waiter(new AppError('pdf_unavailable', NO_BROWSER_MESSAGE, 503));
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
      tiedPath ??= tiedToThisProcess(choice.executablePath);
      const launched = await puppeteer.launch({
        executablePath: tiedPath,
        headless: true,
        args: choice.args,
        env: choice.env ? { ...process.env, ...choice.env } : undefined,
        protocolTimeout: Math.max(timeoutMs * 2, 30_000),
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
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
      await selfTest();
      problem = undefined;
      failures = 0;
      armIdle();
      if (waking) {
        logger.debug({ pid: launched.process()?.pid }, 'the PDF browser is launched again for a render');
        return;
      }
      logger.info(
        {
          browser: choice.source,
          executablePath: choice.executablePath,
          version: choice.version,
          pages: poolSize,
        },
        `PDFs are rendered with ${choice.source === 'system' ? 'the system Chromium' : choice.source} (${choice.version})`,
      );
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
    blockedRequests: () => blocked,
    browserPid: () => browser?.process()?.pid,
    pagesOpened: () => pagesOpened,
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

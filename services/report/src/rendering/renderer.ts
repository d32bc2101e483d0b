import { AppError } from '@readiness/kit/errors';
import type { Logger } from '@readiness/kit/logger';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { UnusableBrowserError, type BrowserChoice } from './browser-choice';
import { checkFonts, fontTestPage } from './font-check';
import { createPagePool, noBrowser, type PagePool } from './page-pool';
import { browserFolder, type BrowserFolder } from './tied-browser';

export { embeddedFonts } from './font-check';

export interface RenderOptions {
  landscape?: boolean;
}

/** A box laid out on the page, in CSS pixels from its top left corner. */
export interface LaidOutBox {
  x: number;
  y: number;
  width: number;
  height: number;
  /** The baseline of the box's first line (the bottom of an empty inline-block `.strut` inside it), when it has one. */
  baseline?: number;
}

/** A PDF and where the elements marked `data-slot` were laid out on its page, by their slot names. */
export interface MeasuredPdf {
  pdf: Buffer;
  slots: Record<string, LaidOutBox>;
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
  /** As `render`, and tells where each `[data-slot]` element and its baseline were laid out. */
  renderMeasured(html: string, options?: RenderOptions): Promise<MeasuredPdf>;
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

export interface RendererOptions {
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
  /** Where the browser's folder goes (its launcher, profile and temporary files); default the system's. */
  tmpDir?: string;
  logger: Logger;
}

export function createRenderer(options: RendererOptions): Renderer {
  return new ChromiumRenderer(options);
}

/** The renderer's state: one browser (or none, asleep or failed), its launch, its idle and relaunch timers. */
class ChromiumRenderer implements Renderer {
  private readonly logger: Logger;
  private readonly idleMs: number;
  private readonly pages: PagePool;
  private readonly listeners: Array<() => void> = [];
  private browser: Browser | undefined;
  private choice: BrowserChoice | undefined;
  private folder: BrowserFolder | undefined;
  private launching: Promise<void> | undefined;
  private problem: string | undefined = 'the browser has not started yet';
  private asleep = false;
  private closing = false;
  private inFlight = 0;
  private failures = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private relaunchTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: RendererOptions) {
    this.logger = options.logger;
    this.idleMs = options.idleMs ?? 0;
    this.pages = createPagePool({
      browser: () => this.browser,
      poolSize: options.poolSize,
      pageRenders: options.pageRenders ?? 20,
      logger: options.logger,
    });
  }

  /** One launch at a time: a wake, a relaunch after a crash and the start share it. */
  start(): Promise<void> {
    this.launching ??= this.launchBrowser().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  async render(html: string, renderOptions: RenderOptions = {}): Promise<Buffer> {
    return (await this.renderMeasuredIf(html, renderOptions, false)).pdf;
  }

  renderMeasured(html: string, renderOptions: RenderOptions = {}): Promise<MeasuredPdf> {
    return this.renderMeasuredIf(html, renderOptions, true);
  }

  private async renderMeasuredIf(
    html: string,
    renderOptions: RenderOptions,
    measure: boolean,
  ): Promise<MeasuredPdf> {
    this.inFlight += 1;
    clearTimeout(this.idleTimer);
    try {
      if (this.asleep) {
        this.asleep = false;
        await this.start().catch(() => undefined);
      } else if (this.launching) {
        await this.launching.catch(() => undefined);
      }
      return await this.renderNow(html, renderOptions, measure);
    } finally {
      this.inFlight -= 1;
      this.armIdle();
    }
  }

  status(): RendererStatus {
    return {
      available: (Boolean(this.browser) || this.asleep) && !this.problem,
      asleep: this.asleep,
      source: this.choice?.source,
      executablePath: this.choice?.executablePath,
      version: this.choice?.version,
      problem: this.problem,
    };
  }

  onAvailable(listener: () => void): void {
    this.listeners.push(listener);
  }

  blockedRequests(): number {
    return this.pages.blockedRequests();
  }

  browserPid(): number | undefined {
    return this.browser?.process()?.pid;
  }

  pagesOpened(): number {
    return this.pages.pagesOpened();
  }

  async close(): Promise<void> {
    this.closing = true;
    this.asleep = false;
    clearTimeout(this.relaunchTimer);
    clearTimeout(this.idleTimer);
    const current = this.browser;
    this.dropBrowser('the service is stopping');
    await current?.close().catch(() => undefined);
    this.folder?.remove();
    this.folder = undefined;
  }

  private async renderNow(
    html: string,
    renderOptions: RenderOptions = {},
    measure = false,
  ): Promise<MeasuredPdf> {
    const page = await this.pages.acquire();
    let timer: NodeJS.Timeout | undefined;
    let healthy = false;
    try {
      const rendered = await withTimeout(
        this.renderOn(page, html, renderOptions, measure),
        this.options.timeoutMs,
        (t) => {
          timer = t;
        },
      );
      healthy = true;
      return rendered;
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (!this.browser) throw noBrowser(err);
      throw new AppError('pdf_failed', 'The PDF could not be prepared. Try again.', 503, { cause: err });
    } finally {
      clearTimeout(timer);
      this.pages.release(page, healthy);
    }
  }

  private async renderOn(
    page: Page,
    html: string,
    renderOptions: RenderOptions,
    measure: boolean,
  ): Promise<MeasuredPdf> {
    const timeout = this.options.timeoutMs;
    await page.setContent(html, { waitUntil: 'load', timeout });
    const slots = measure ? await slotBoxes(page) : {};
    const pdf = await page.pdf({
      format: 'A4',
      landscape: renderOptions.landscape ?? false,
      printBackground: true,
      preferCSSPageSize: true,
      timeout,
    });
    return { pdf: Buffer.from(pdf), slots };
  }

  /** Closes the browser once nothing has been rendered for `idleMs`; the next render launches it again. */
  private armIdle(): void {
    clearTimeout(this.idleTimer);
    if (this.idleMs <= 0 || this.closing || !this.browser || this.inFlight > 0) return;
    this.idleTimer = setTimeout(() => void this.closeIdleBrowser(), this.idleMs);
    this.idleTimer.unref();
  }

  private async closeIdleBrowser(): Promise<void> {
    const current = this.browser;
    if (!current || this.inFlight > 0 || this.launching || this.closing) return;
    // The disconnect that follows is not a crash: `browser` no longer points at it.
    this.browser = undefined;
    this.pages.reset();
    this.asleep = true;
    this.logger.info(
      { idleSeconds: Math.round(this.idleMs / 1000) },
      'no PDF for a while: the browser is closed until the next one',
    );
    await current.close().catch(() => undefined);
  }

  private dropBrowser(reason: string): void {
    this.browser = undefined;
    this.problem = reason;
    this.pages.reset();
  }

  private scheduleRelaunch(): void {
    if (this.closing || this.relaunchTimer) return;
    const delay = RELAUNCH_DELAYS_MS[Math.min(this.failures, RELAUNCH_DELAYS_MS.length - 1)]!;
    this.failures += 1;
    this.relaunchTimer = setTimeout(() => {
      this.relaunchTimer = undefined;
      void this.start().catch(() => undefined);
    }, delay);
    this.relaunchTimer.unref();
  }

  private async launchBrowser(): Promise<void> {
    // Only a browser closed for being idle leaves no problem behind: the start and a relaunch after a crash do.
    const waking = this.problem === undefined;
    try {
      const choice = (this.choice ??= await this.options.choose());
      const launched = await launchTied(
        choice,
        (this.folder ??= browserFolder(choice.executablePath, this.options.tmpDir)),
        this.options.timeoutMs,
      );
      this.browser = launched;
      launched.on('disconnected', () => this.onDisconnected(launched));
      await checkFonts((await this.renderNow(fontTestPage(this.options.fontFaces))).pdf);
      this.problem = undefined;
      this.failures = 0;
      this.armIdle();
      if (waking) {
        this.logger.debug({ pid: launched.process()?.pid }, 'the PDF browser is launched again for a render');
        return;
      }
      announce(choice, this.options.poolSize, this.logger);
      for (const listener of this.listeners) listener();
    } catch (err) {
      await this.launchFailed(err);
    }
  }

  private onDisconnected(launched: Browser): void {
    if (this.browser !== launched || this.closing) return;
    this.logger.error(
      { executablePath: this.choice?.executablePath },
      'the PDF browser stopped; launching it again',
    );
    this.dropBrowser('the browser stopped; it is being launched again');
    this.scheduleRelaunch();
  }

  private async launchFailed(err: unknown): Promise<void> {
    if (err instanceof UnusableBrowserError) throw err;
    const current = this.browser;
    this.dropBrowser(`no browser could start: ${(err as Error).message}`);
    await current?.close().catch(() => undefined);
    this.logger.error({ err }, `${this.problem}; PDF calls answer 503 until one starts`);
    // A failed choice is made again next time: a browser may be installed meanwhile.
    if (!current) this.choice = undefined;
    this.scheduleRelaunch();
  }
}

/** Chromium, headless, tied to this process (it dies with it), with signals left to the service. */
function launchTied(choice: BrowserChoice, folder: BrowserFolder, timeoutMs: number): Promise<Browser> {
  return puppeteer.launch({
    executablePath: folder.executablePath,
    userDataDir: folder.profileDir(),
    headless: true,
    args: choice.args,
    env: { ...process.env, ...choice.env, TMPDIR: folder.tmpDir },
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

/**
 * The boxes of the page's `[data-slot]` elements, read through the DevTools protocol's DOM domain: the pages run
 * no script, and this needs none.
 */
async function slotBoxes(page: Page): Promise<Record<string, LaidOutBox>> {
  const cdp = await page.createCDPSession();
  try {
    const box = async (nodeId: number) => {
      const { model } = await cdp.send('DOM.getBoxModel', { nodeId });
      const [x, y, right, , , bottom] = model.border;
      return { x: x!, y: y!, width: right! - x!, height: bottom! - y! };
    };
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', {
      nodeId: root.nodeId,
      selector: '[data-slot]',
    });
    const slots: Record<string, LaidOutBox> = {};
    for (const nodeId of nodeIds) {
      const { attributes } = await cdp.send('DOM.getAttributes', { nodeId });
      const name = attributes[attributes.indexOf('data-slot') + 1]!;
      const strut = await cdp.send('DOM.querySelector', { nodeId, selector: '.strut' });
      const outer = await box(nodeId);
      slots[name] = strut.nodeId ? { ...outer, baseline: (await box(strut.nodeId)).y } : outer;
    }
    return slots;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

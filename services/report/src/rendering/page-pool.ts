import { AppError } from '@readiness/kit/errors';
import type { Logger } from '@readiness/kit/logger';
import type { Browser, HTTPRequest, Page } from 'puppeteer-core';

export const NO_BROWSER_MESSAGE =
  'PDF generation is temporarily unavailable: no browser is running. Try again shortly.';

export const noBrowser = (cause?: unknown) =>
  new AppError('pdf_unavailable', NO_BROWSER_MESSAGE, 503, cause === undefined ? undefined : { cause });

/**
 * A bounded pool of the browser's pages, which run no JavaScript and load nothing but data: URLs (every other
 * request, `file://`, metadata addresses and internal hosts included, is aborted and counted). A render waits
 * for a free page, up to a queue of fifty per page; a page that failed or is worn out is closed and replaced.
 */
export type PagePool = ReturnType<typeof createPagePool>;

export function createPagePool(options: {
  /** The browser pages are opened in now (none while it is down or asleep). */
  browser: () => Browser | undefined;
  poolSize: number;
  /** Renders a page does before it is closed and a fresh one takes its place. */
  pageRenders: number;
  logger: Logger;
}) {
  const { poolSize, logger } = options;
  const idle: Page[] = [];
  const waiting: Array<(page: Page | Error) => void> = [];
  const maxWaiting = poolSize * 50;
  const rendersOf = new WeakMap<Page, number>();
  let open = 0;
  let blocked = 0;
  let pagesOpened = 0;

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
    const current = options.browser();
    if (!current) throw noBrowser();
    const page = idle.pop();
    if (page && !page.isClosed()) return page;
    if (open < poolSize) {
      open += 1;
      try {
        return await newPage(current);
      } catch (err) {
        open -= 1;
        throw noBrowser(err);
      }
    }
    if (waiting.length >= maxWaiting) {
      throw new AppError('pdf_busy', 'Too many PDFs are being prepared. Try again shortly.', 503);
    }
    const next = await new Promise<Page | Error>((resolve) => waiting.push(resolve));
    if (next instanceof Error) throw next;
    return next;
  }

  function discard(page: Page) {
    open -= 1;
    void page.close().catch(() => undefined);
    const waiter = waiting.shift();
    // The waiter gets a fresh page in place of the discarded one.
    if (waiter) acquire().then(waiter, (err: Error) => waiter(err));
  }

  return {
    acquire,

    /** Gives a page back after a render; a worn page is released as an unhealthy one (closed, replaced when needed). */
    release(page: Page, healthy: boolean): void {
      const renders = (rendersOf.get(page) ?? 0) + 1;
      rendersOf.set(page, renders);
      if (
        !healthy ||
        renders >= options.pageRenders ||
        page.isClosed() ||
        page.browser() !== options.browser()
      ) {
        discard(page);
        return;
      }
      const waiter = waiting.shift();
      if (waiter) waiter(page);
      else idle.push(page);
    },

    /** Forgets every page of a browser that is gone; renders still waiting for one get a 503. */
    reset(): void {
      idle.length = 0;
      open = 0;
      for (const waiter of waiting.splice(0)) waiter(noBrowser());
    },

    blockedRequests: () => blocked,
    pagesOpened: () => pagesOpened,
  };
}

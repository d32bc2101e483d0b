import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@readiness/kit/logger';
import { chooseBrowser } from '../src/rendering/browser-choice';
import { createRenderer, embeddedFonts, type Renderer } from '../src/rendering/renderer';
import { loadFontFaces } from '../src/domain/templates/fonts';
import { pdfText } from './harness';

jest.setTimeout(120_000);

const logger = createLogger({ name: 'renderer-test', level: 'silent' });

/** A renderer on the system's Chromium, two pages, a 10 s timeout, unless `options` says otherwise. */
const systemRenderer = (options: { poolSize?: number; pageRenders?: number; idleMs?: number } = {}) =>
  createRenderer({
    choose: () => chooseBrowser({ bundled: false, bundledDir: '/nonexistent', logger }),
    fontFaces: loadFontFaces(),
    poolSize: 2,
    timeoutMs: 10_000,
    logger,
    ...options,
  });

describe('PDF renderer', () => {
  let renderer: Renderer;
  let server: Server;
  let hits = 0;
  let origin = '';

  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits += 1;
      res.end('body{background:red}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    renderer = systemRenderer();
    await renderer.start();
  });

  afterAll(async () => {
    await renderer?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('when a page tries to load the metadata address, a local file, an internal host or run a script, then nothing loads', async () => {
    const before = renderer.blockedRequests();
    const pdf = await renderer.render(`<!doctype html><html><head>
      <link rel="stylesheet" href="${origin}/style.css">
      <style>@import url("${origin}/import.css"); body{background:url("${origin}/bg.png")}</style>
      </head><body>
      <img src="http://169.254.169.254/latest/meta-data/iam/">
      <img src="file:///etc/passwd">
      <iframe src="file:///etc/passwd"></iframe>
      <iframe src="${origin}/frame"></iframe>
      <script>document.body.innerHTML = 'SCRIPT RAN'</script>
      <p>Static text</p></body></html>`);
    const text = pdfText(pdf);
    expect(text).toContain('Static text');
    expect(text).not.toContain('SCRIPT RAN');
    expect(text).not.toContain('root:');
    expect(hits).toBe(0);
    // The metadata address and every request to the internal host were aborted by the page's interception.
    expect(renderer.blockedRequests() - before).toBeGreaterThanOrEqual(4);
  });

  it('when a PDF is rendered, then the product fonts are embedded in it', async () => {
    const pdf = await renderer.render(
      `<!doctype html><html><head><style>${loadFontFaces()}</style></head><body style="font-family:Inter">Hello</body></html>`,
    );
    expect(embeddedFonts(pdf).some((font) => font.startsWith('Inter'))).toBe(true);
  });

  it('when more renders are asked than the pool has pages, then they all finish', async () => {
    const pdfs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => renderer.render(`<p>Document ${i}</p>`)),
    );
    pdfs.forEach((pdf, i) => expect(pdfText(pdf)).toContain(`Document ${i}`));
  });

  it('when a page has rendered its share of PDFs, then it is closed and a fresh one renders the next, in order', async () => {
    const worn = systemRenderer({ poolSize: 1, pageRenders: 3 });
    await worn.start();
    try {
      const before = worn.pagesOpened();
      const pdfs: Buffer[] = [];
      for (let i = 0; i < 7; i++) pdfs.push(await worn.render(`<p>Recycled ${i}</p>`));
      pdfs.forEach((pdf, i) => expect(pdfText(pdf)).toContain(`Recycled ${i}`));
      // The start's test PDF used the first page once: its pages served 3 + 3 + 3 renders (1 + 7 + 1 to come).
      expect(worn.pagesOpened() - before).toBe(2);
      const burst = await Promise.all(Array.from({ length: 5 }, (_, i) => worn.render(`<p>Burst ${i}</p>`)));
      burst.forEach((pdf, i) => expect(pdfText(pdf)).toContain(`Burst ${i}`));
      expect(worn.pagesOpened()).toBe(before + 4);
    } finally {
      await worn.close();
    }
  });

  it('when no PDF is asked for a while, then the browser is closed, and the next renders launch one browser again', async () => {
    // Long enough that two renders 200 ms apart on a busy machine never fall on either side of it.
    const sleepy = systemRenderer({ idleMs: 1_500 });
    await sleepy.start();
    try {
      const first = sleepy.browserPid()!;
      expect(pdfText(await sleepy.render('<p>Before the quiet spell</p>'))).toContain(
        'Before the quiet spell',
      );
      // Renders close together keep it open.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await sleepy.render('<p>Soon after</p>');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(sleepy.browserPid()).toBe(first);
      const deadline = Date.now() + 10_000;
      while (sleepy.browserPid() !== undefined && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(sleepy.browserPid()).toBeUndefined();
      expect(sleepy.status()).toMatchObject({ available: true, asleep: true });
      // The closed browser's process is gone (reaped within seconds, however busy the machine).
      const alive = () => {
        try {
          process.kill(first, 0);
          return true;
        } catch {
          return false;
        }
      };
      const gone = Date.now() + 10_000;
      while (alive() && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(alive()).toBe(false);
      const opened = sleepy.pagesOpened();
      // Five renders arrive together while it sleeps: one browser is launched and renders them all.
      const burst = await Promise.all(
        Array.from({ length: 5 }, (_, i) => sleepy.render(`<p>Woken ${i}</p>`)),
      );
      burst.forEach((pdf, i) => expect(pdfText(pdf)).toContain(`Woken ${i}`));
      const second = sleepy.browserPid();
      expect(second).toBeDefined();
      expect(second).not.toBe(first);
      // The launch's test PDF opens the pool's first page and the burst a second one.
      expect(sleepy.pagesOpened() - opened).toBe(2);
      expect(sleepy.status()).toMatchObject({ available: true, asleep: false });
    } finally {
      await sleepy.close();
    }
  });

  it('when the browser process dies, then it is launched again and renders', async () => {
    const { executablePath } = renderer.status();
    expect(executablePath).toBeTruthy();
    const pid = renderer.browserPid();
    expect(pid).toBeDefined();
    process.kill(pid!, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(renderer.status().available).toBe(false);
    await expect(renderer.render('<p>x</p>')).rejects.toMatchObject({ httpStatus: 503 });
    const deadline = Date.now() + 20_000;
    while (!renderer.status().available && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(pdfText(await renderer.render('<p>After relaunch</p>'))).toContain('After relaunch');
  });
});

import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Express, type Request, type Response } from 'express';
import serveCompressed from 'express-static-gzip';

/** Paths of the student entry (web/student.html); web/vite.config.mts names the same ones. */
const STUDENT_PAGES = /^\/(assessment|verify)(\/|$)/;

/** Source maps, and the compressed copies asked for by their own names. */
const NOT_SERVED = /\.(map|br|gz)$/;

/** The encodings the build writes a copy in (web/scripts/precompress.mjs), the smaller first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * Serves the built web app. Vite names everything under `assets/` by content hash, so those files
 * never change and may be cached for a year; `index.html` must be revalidated on every visit so a
 * deployment reaches users on their next page load. Every script, style and page goes out as the
 * Brotli or gzip copy the build made beside it when the browser accepts one (a student on a slow
 * mobile link downloads a quarter of the bytes), and as it is otherwise.
 */
export function mountWebApp(app: Express, distDir: string): void {
  const root = path.resolve(distDir);
  const indexHtml = path.join(root, 'index.html');
  if (!existsSync(indexHtml))
    throw new Error(`WEB_DIST_DIR has no index.html: ${root} (build the web app first)`);
  // The public student pages are the app's second entry: their own page, with no admin code in it.
  const studentHtml = path.join(root, 'student.html');
  const hasStudentPage = existsSync(studentHtml);
  const pageFor = (pathname: string) =>
    hasStudentPage && STUDENT_PAGES.test(pathname) ? studentHtml : indexHtml;
  const copiesOf = new Map(
    [indexHtml, studentHtml].map((page) => [page, ENCODINGS.filter((e) => existsSync(page + e.suffix))]),
  );

  const files = serveCompressed(root, {
    enableBrotli: true,
    orderPreference: ENCODINGS.map((e) => e.name),
    index: false,
    serveStatic: {
      index: false,
      setHeaders: (res, filePath) => {
        const relative = path.relative(root, filePath).split(path.sep);
        res.setHeader(
          'Cache-Control',
          relative[0] === 'assets'
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=0, must-revalidate',
        );
      },
    },
  });
  // A build made with source maps (to debug or analyse it) must still not hand the app's source out; the compressed
  // copies go out only as their file's encoding, never as files of their own (raw bytes with no type).
  app.use((req, res, next) => (NOT_SERVED.test(req.path) ? next() : files(req, res, next)));

  // History fallback: client-side routes load their entry's page (/admin/… index.html, /assessment/… student.html).
  app.use((req, res, next) => {
    const isPageRequest =
      (req.method === 'GET' || req.method === 'HEAD') &&
      !req.path.startsWith('/api/') &&
      req.path !== '/api' &&
      req.accepts(['html', 'json']) === 'html';
    if (!isPageRequest) {
      next();
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    const page = pageFor(req.path);
    sendPage(req, res, page, copiesOf.get(page) ?? []);
  });
}

/** An entry's page, in the compressed copy the browser accepts when the build made one. */
function sendPage(
  req: Request,
  res: Response,
  page: string,
  copies: ReadonlyArray<(typeof ENCODINGS)[number]>,
) {
  res.setHeader('Vary', 'Accept-Encoding');
  // The smaller copy the browser accepts at all (a browser lists gzip before br with the same weight); with no
  // Accept-Encoding, the page as it is, as for the assets.
  const copy = req.headers['accept-encoding']
    ? copies.find((e) => req.acceptsEncodings(e.name) === e.name)
    : undefined;
  if (!copy) {
    res.sendFile(page);
    return;
  }
  res.setHeader('Content-Encoding', copy.name);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.sendFile(page + copy.suffix);
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Express } from 'express';
import serveCompressed from 'express-static-gzip';

/** Paths of the student entry (web/student.html); web/vite.config.mts names the same ones. */
const STUDENT_PAGES = /^\/(assessment|verify)(\/|$)/;

/** The student's assessment pages: an LTI launch shows them inside the LMS (`LTI_FRAME_ANCESTORS`). */
export const FRAMED_PAGES = /^\/assessment(\/|$)/;

/** Source maps, and the compressed copies asked for by their own names. */
const NOT_SERVED = /\.(map|br|gz)$/;

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
  const hasStudentPage = existsSync(path.join(root, 'student.html'));
  const pageFor = (pathname: string) =>
    hasStudentPage && STUDENT_PAGES.test(pathname) ? '/student.html' : '/index.html';

  // The copies web/scripts/precompress.mjs writes beside each file; the smaller one first when both are accepted.
  const files = serveCompressed(root, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      index: false,
      setHeaders: (res, filePath) => {
        const relative = path.relative(root, filePath).split(path.sep);
        res.setHeader(
          'Cache-Control',
          relative[0] === 'assets' ? 'public, max-age=31536000, immutable' : 'no-cache',
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
    // The entry's page through the same middleware as every file: its compressed copy when the browser accepts one.
    req.url = pageFor(req.path);
    files(req, res, next);
  });
}

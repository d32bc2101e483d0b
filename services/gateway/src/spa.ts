import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';

/** Paths of the student entry (web/student.html); web/vite.config.mts names the same ones. */
const STUDENT_PAGES = /^\/(assessment|verify)(\/|$)/;

/**
 * Serves the built web app. Vite names everything under `assets/` by content hash, so those files
 * never change and may be cached for a year; `index.html` must be revalidated on every visit so a
 * deployment reaches users on their next page load.
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

  const files = express.static(root, {
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
  });
  // A build made with source maps (to debug or analyse it) must still not hand the app's source out.
  app.use((req, res, next) => (req.path.endsWith('.map') ? next() : files(req, res, next)));

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
    res.sendFile(pageFor(req.path));
  });
}

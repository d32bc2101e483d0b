import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';

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

  // History fallback: client-side routes (/admin/results/…, /assessment/…) load the app shell.
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
    res.sendFile(indexHtml);
  });
}

import path from 'node:path';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { describe, precompress } from './scripts/precompress.mjs';

/*
 * Two front doors (STYLE §12): index.html is the admin portal, student.html the public student pages,
 * each with its own entry, store and API slice. Page paths under these prefixes get student.html, in
 * development here and in production from the gateway (services/gateway/src/spa.ts).
 */
const STUDENT_PAGES = /^\/(assessment|verify)(\/|$)/;

const studentPagesInDevelopment: Plugin = {
  name: 'student-pages',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      const pathname = (req.url ?? '').split('?')[0] ?? '';
      if (STUDENT_PAGES.test(pathname) && req.headers.accept?.includes('text/html'))
        req.url = '/student.html';
      next();
    });
  },
};

/*
 * The message catalogues (issue 27) are written as ICU MessageFormat and shipped compiled into Lingui's runtime
 * form, so the pages carry no MessageFormat parser (about 7 KB gzipped): the student pages' (src/i18n/locales/*.ts)
 * and the files of the admin app's (src/i18n/admin/<language>/<area>.ts; the folder's index.ts only merges them).
 * A catalogue is plain data: its module, once its types are stripped, is run here and its messages compiled.
 */
const CATALOGUE = /\/src\/i18n\/(locales\/[a-z]{2}|admin\/[a-z]{2}\/(?!index\.)[a-z-]+)\.ts$/;

const compiledCatalogues: Plugin = {
  name: 'compiled-catalogues',
  async transform(code, id) {
    if (!CATALOGUE.test(id.split('?')[0] ?? '')) return null;
    if (/^\s*import\s/m.test(code)) throw new Error(`${id}: a catalogue imports nothing but types`);
    const source = `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`;
    const { default: messages } = (await import(source)) as { default: Record<string, string> };
    const compiled = Object.fromEntries(
      Object.entries(messages).map(([key, message]) => [key, compileMessageOrThrow(message)]),
    );
    return { code: `export default ${JSON.stringify(compiled)};\n`, map: { mappings: '' } };
  },
};

/*
 * Each page's loading shell: shown until the app's script has arrived and drawn its first screen (React replaces the
 * root's content), which on a slow link takes seconds that a blank page would spend looking broken. Inline, so it
 * costs no request, and the same spinner as the app's FullPageSpinner.
 */
const LOADING_SHELL_STYLE = `
  body { margin: 0; background: #f5f7fb; }
  .boot { min-height: 100vh; display: flex; align-items: center; justify-content: center; }
  .boot-spinner {
    width: 44px; height: 44px; box-sizing: border-box; border-radius: 50%;
    border: 4px solid #24498a; border-right-color: transparent; animation: boot-spin 0.7s linear infinite;
  }
  @keyframes boot-spin { to { transform: rotate(360deg); } }
  @media (prefers-reduced-motion: reduce) { .boot-spinner { animation-duration: 2s; } }
`;
const LOADING_SHELL =
  '<div class="boot" role="status" aria-label="Loading"><span class="boot-spinner"></span></div>';

const loadingShell: Plugin = {
  name: 'loading-shell',
  transformIndexHtml(html) {
    if (!html.includes('<div id="root"></div>') || !html.includes('</title>'))
      throw new Error('a page without its title or its empty root: no place for the loading shell');
    // After the charset and the title, before the app's own stylesheet (Vite adds it later), which then wins.
    return html
      .replace('</title>', `</title>\n    <style>${LOADING_SHELL_STYLE}</style>`)
      .replace('<div id="root"></div>', `<div id="root">${LOADING_SHELL}</div>`);
  },
};

// The gateway (port 8080) serves the API in development; the dev server forwards to it so the
// browser sees one origin, as it does in production where the gateway serves web/dist.
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:8080';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), studentPagesInDevelopment, compiledCatalogues, loadingShell],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: gateway, changeOrigin: true },
      '/dev': { target: gateway, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    // The manifest lets a test prove that the student pages never pull in admin code.
    manifest: true,
    // No source maps in what the gateway serves: they would hand out the app's full source.
    sourcemap: false,
  },
  /*
   * Each front door is built on its own, so that tree-shaking trims the libraries to what that door
   * uses: built together, the student pages would share (and download) the admin's data router.
   */
  environments: {
    client: {
      build: { rollupOptions: { input: path.join(import.meta.dirname, 'index.html') } },
    },
    student: {
      consumer: 'client',
      build: {
        // The admin build went first and emptied the folder; this one adds to it.
        emptyOutDir: false,
        manifest: '.vite/student-manifest.json',
        rollupOptions: { input: path.join(import.meta.dirname, 'student.html') },
      },
    },
  },
  builder: {
    async buildApp(builder) {
      await builder.build(builder.environments.client!);
      await builder.build(builder.environments.student!);
      // Both entries written: a Brotli and a gzip copy beside each script, style and page (the gateway serves them).
      const totals = await precompress(path.join(import.meta.dirname, 'dist'));
      builder.config.logger.info(`precompressed ${describe(totals)}`);
    },
  },
});

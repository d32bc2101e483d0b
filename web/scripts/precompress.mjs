// Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside every compressible file of the built web app, at the
// strongest settings (made once, at build time), so the gateway sends scripts, styles and pages compressed without
// spending a core on it per request (services/gateway/src/spa.ts picks the copy the browser accepts).
//
//   node web/scripts/precompress.mjs [folder]     the folder defaults to web/dist; vite.config.mts calls it after
//                                                 both entries are built
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text formats; images and fonts such as woff2 are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|ttf|otf|webmanifest)$/;
/** Below this a compressed copy saves less than its own headers cost. */
const MIN_BYTES = 1024;

/**
 * Compresses every compressible file under `folder` (dotted folders such as Vite's `.vite` manifests are not served
 * and are left alone); a copy that is not at least a tenth smaller is not kept. Returns the totals.
 */
export async function precompress(folder) {
  const totals = { files: 0, bytes: 0, br: 0, gz: 0 };
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    const file = path.join(entry.parentPath, entry.name);
    const relative = path.relative(folder, file);
    if (
      !entry.isFile() ||
      !COMPRESSIBLE.test(entry.name) ||
      relative.split(path.sep).some((p) => p.startsWith('.'))
    )
      continue;
    const source = await readFile(file);
    if (source.length < MIN_BYTES) continue;
    const [br, gz] = await Promise.all([
      brotli(source, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        },
      }),
      gzip(source, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    if (br.length > source.length * 0.9 || gz.length > source.length * 0.9) {
      await Promise.all([rm(`${file}.br`, { force: true }), rm(`${file}.gz`, { force: true })]);
      continue;
    }
    await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    totals.files += 1;
    totals.bytes += source.length;
    totals.br += br.length;
    totals.gz += gz.length;
  }
  return totals;
}

/** `412 files, 2,031 KB → 480 KB brotli, 590 KB gzip`. */
export function describe(totals) {
  const kb = (bytes) => `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`;
  return `${totals.files} files, ${kb(totals.bytes)} → ${kb(totals.br)} brotli, ${kb(totals.gz)} gzip`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const folder = path.resolve(
    process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist'),
  );
  process.stdout.write(`precompressed ${describe(await precompress(folder))}\n`);
}

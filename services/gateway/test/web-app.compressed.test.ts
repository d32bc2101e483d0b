import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import { mountWebApp } from '../src/spa';

/*
 * A student on a slow mobile link downloads the app's scripts compressed: the build writes a Brotli and a gzip copy
 * beside every script, style and page (web/scripts/precompress.mjs, run here on a made-up build as `npm run build`
 * runs it), and the gateway sends the copy the browser accepts, with the caching rules of the file it stands for.
 */
const ROOT = path.resolve(__dirname, '../../..');
const script = `export const questions = [${Array.from({ length: 400 }, (_, i) => `"question ${i}"`).join(',')}];\n`;
const page = `<!doctype html><html lang="en"><head><title>admin</title><style>${'.shell{color:#1d3a6e}'.repeat(80)}</style></head><body><div id="root"></div></body></html>`;

let webDir: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  webDir = mkdtempSync(path.join(tmpdir(), 'gateway-web-compressed-'));
  mkdirSync(path.join(webDir, 'assets'));
  writeFileSync(path.join(webDir, 'index.html'), page);
  writeFileSync(path.join(webDir, 'student.html'), page.replace('admin', 'student'));
  writeFileSync(path.join(webDir, 'assets/app-1a2b3c.js'), script);
  writeFileSync(path.join(webDir, 'assets/tiny-9f8e.js'), 'export const x = 1;\n');
  writeFileSync(path.join(webDir, 'assets/font-77aa.woff2'), Buffer.alloc(4096, 7));
  execFileSync(process.execPath, [path.join(ROOT, 'web/scripts/precompress.mjs'), webDir]);
  const app = express();
  mountWebApp(app, webDir);
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(webDir, { recursive: true, force: true });
});

/** The answer's headers and its bytes as they crossed the wire (not decompressed). */
function get(
  pathname: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathname}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

test('when the build is made, then each script and page has a Brotli and a gzip copy, and small or already compressed files none', () => {
  for (const file of ['assets/app-1a2b3c.js', 'index.html', 'student.html']) {
    expect(existsSync(path.join(webDir, `${file}.br`))).toBe(true);
    expect(zlib.gunzipSync(readOf(`${file}.gz`)).toString()).toBe(readOf(file).toString());
  }
  for (const file of ['assets/tiny-9f8e.js', 'assets/font-77aa.woff2']) {
    expect(existsSync(path.join(webDir, `${file}.br`))).toBe(false);
    expect(existsSync(path.join(webDir, `${file}.gz`))).toBe(false);
  }
});

test('when a browser accepts Brotli, then a script comes as the Brotli copy, cached for a year, and unpacks to the script', async () => {
  const res = await get('/assets/app-1a2b3c.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
  expect(res.status).toBe(200);
  expect(res.headers['content-encoding']).toBe('br');
  expect(res.headers['content-type']).toMatch(/^text\/javascript; charset=utf-8$/i);
  expect(res.headers.vary).toMatch(/Accept-Encoding/);
  expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(Number(res.headers['content-length'])).toBe(res.body.length);
  expect(res.body.length).toBeLessThan(script.length / 4);
  expect(zlib.brotliDecompressSync(res.body).toString()).toBe(script);
});

test.each([
  ['gzip', 'gzip'],
  ['br;q=0, gzip', 'gzip'],
  ['deflate, gzip;q=0.5', 'gzip'],
])('when a browser accepts %p, then the script comes as its %s copy', async (accepted, encoding) => {
  const res = await get('/assets/app-1a2b3c.js', { 'accept-encoding': accepted });
  expect(res.headers['content-encoding']).toBe(encoding);
  expect(zlib.gunzipSync(res.body).toString()).toBe(script);
});

test.each<Record<string, string>>([
  {},
  { 'accept-encoding': 'identity' },
  { 'accept-encoding': 'br;q=0, gzip;q=0' },
])('when a client accepts no compression (%p), then the script comes as it is', async (headers) => {
  const res = await get('/assets/app-1a2b3c.js', headers);
  expect(res.status).toBe(200);
  expect(res.headers['content-encoding']).toBeUndefined();
  expect(res.body.toString()).toBe(script);
});

test("when a browser opens an admin or a student page, then the entry's page comes compressed and is revalidated on every visit", async () => {
  for (const [pathname, title] of [
    ['/admin/results', 'admin'],
    ['/assessment/tok-123', 'student'],
  ] as const) {
    const res = await get(pathname, { accept: 'text/html', 'accept-encoding': 'gzip, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8$/i);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    expect(zlib.brotliDecompressSync(res.body).toString()).toContain(`<title>${title}</title>`);

    const plain = await get(pathname, { accept: 'text/html' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toContain(`<title>${title}</title>`);
  }
});

test.each(['/assets/app-1a2b3c.js.br', '/assets/app-1a2b3c.js.gz', '/index.html.br'])(
  'when %s is asked for by its own name, then the copy is not handed out as a file of its own',
  async (pathname) => {
    const res = await get(pathname, { accept: 'application/javascript', 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type'] ?? '').not.toMatch(/octet-stream|brotli|gzip/);
  },
);

test('when a HEAD asks for a compressed script, then it gets the headers of the copy and no body', async () => {
  const res = await get('/assets/app-1a2b3c.js', { 'accept-encoding': 'br' }, 'HEAD');
  expect(res.status).toBe(200);
  expect(res.headers['content-encoding']).toBe('br');
  expect(res.body.length).toBe(0);
});

function readOf(file: string): Buffer {
  return readFileSync(path.join(webDir, file));
}

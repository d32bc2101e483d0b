import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { mountWebApp } from '../src/spa';

/*
 * The web folder as a build made with source maps leaves it (`vite build --sourcemap`, for debugging or
 * bundle analysis): the gateway serves the bundle but never the map beside it, which holds the source.
 */
describe('web app served by the gateway', () => {
  const SOURCE = 'export const secretAdminRule = 42;';
  let webDir: string;
  let app: express.Express;

  beforeAll(() => {
    webDir = mkdtempSync(path.join(tmpdir(), 'gateway-web-maps-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Readiness</title>');
    writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(42);');
    writeFileSync(
      path.join(webDir, 'assets', 'index-abc123.js.map'),
      JSON.stringify({ version: 3, sources: ['src/admin.ts'], sourcesContent: [SOURCE], mappings: '' }),
    );
    app = express();
    mountWebApp(app, webDir);
  });

  afterAll(() => rmSync(webDir, { recursive: true, force: true }));

  test('when a client asks for a bundle, then it is served', async () => {
    const res = await request(app).get('/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.text).toBe('console.log(42);');
  });

  test.each([
    ['a script', 'application/json'],
    ['a browser', 'text/html'],
  ])(
    'when %s asks for the source map next to a bundle, then the source does not come back',
    async (_who, accept) => {
      const res = await request(app).get('/assets/index-abc123.js.map').set('Accept', accept);
      expect(res.text ?? '').not.toContain('secretAdminRule');
      expect(res.headers['content-type'] ?? '').not.toMatch(/json/);
    },
  );
});

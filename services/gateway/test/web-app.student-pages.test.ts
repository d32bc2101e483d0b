import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { mountWebApp } from '../src/spa';

/*
 * The web app has two front doors (STYLE §12): the admin portal (index.html) and the public student
 * pages (student.html). A page under /assessment/ or /verify/ gets the student page, with no admin code.
 */
describe('web app served by the gateway, student pages', () => {
  let webDir: string;
  let app: express.Express;

  beforeAll(() => {
    webDir = mkdtempSync(path.join(tmpdir(), 'gateway-web-student-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>admin</title>');
    writeFileSync(path.join(webDir, 'student.html'), '<!doctype html><title>student</title>');
    app = express();
    mountWebApp(app, webDir);
  });

  afterAll(() => rmSync(webDir, { recursive: true, force: true }));

  test.each(['/assessment/tok-123', '/assessment/tok-123/complete', '/verify/ABCD-1234'])(
    'when a browser opens %s, then the student page comes back',
    async (pagePath) => {
      const res = await request(app).get(pagePath).set('Accept', 'text/html');
      expect(res.status).toBe(200);
      expect(res.text).toContain('<title>student</title>');
    },
  );

  test.each(['/', '/admin/login', '/admin/results/42', '/assessments', '/no/such/page'])(
    'when a browser opens %s, then the admin page comes back',
    async (pagePath) => {
      const res = await request(app).get(pagePath).set('Accept', 'text/html');
      expect(res.text).toContain('<title>admin</title>');
    },
  );
});

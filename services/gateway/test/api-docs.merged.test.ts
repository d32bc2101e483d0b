import { danglingRefs, describeService, serveOpenApi, type OpenApiDocument } from '@readiness/kit/openapi';
import { eventually, freePort } from '@readiness/testing';
import { z } from 'zod';
import { start, type RunningGateway } from '../src/service';
import {
  gatewayConfig,
  silentLogger,
  startEmbeddedAuth,
  startUpstream,
  type EmbeddedAuth,
  type Upstream,
} from './helpers';

jest.setTimeout(60_000);

const notificationDoc = describeService({
  service: 'notification',
  operations: {
    'GET /api/admin/notifications': {
      summary: 'Mail delivery log',
      admin: true,
      query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
      responses: { 200: { description: 'OK', body: z.object({ deliveries: z.array(z.string()) }) } },
    },
    // Routed to the student service, not to this one: the gateway leaves it out.
    'GET /api/student/{token}': { summary: 'Not mine', responses: { 200: { description: 'OK' } } },
  },
});

const studentDoc = describeService({
  service: 'student',
  operations: {
    'GET /api/admin/students': {
      summary: 'List students',
      admin: true,
      responses: { 200: { description: 'OK', body: z.object({ students: z.array(z.string()) }) } },
    },
  },
});

describe('API documentation merged by the gateway', () => {
  let auth: EmbeddedAuth;
  let notification: Upstream;
  let student: Upstream | undefined;
  let studentPort: number;
  let gateway: RunningGateway;

  const fetchDoc = async (): Promise<OpenApiDocument> =>
    (await (await fetch(`${gateway.url}/api/docs/openapi.json`)).json()) as OpenApiDocument;

  beforeAll(async () => {
    auth = await startEmbeddedAuth();
    notification = await startUpstream((app) => serveOpenApi(app, notificationDoc));
    studentPort = await freePort();
    gateway = await start({
      config: gatewayConfig({
        AUTH_URL: auth.auth.url,
        NOTIFICATION_URL: notification.url,
        STUDENT_URL: `http://127.0.0.1:${studentPort}`,
      }),
      logger: silentLogger,
      apiDocs: { retryMs: 200 },
    });
  });

  afterAll(async () => {
    await gateway.stop();
    await Promise.all([auth.close(), notification.close(), student?.close()]);
  });

  it("when auth and notification answer, then the document has both services' paths under one security scheme", async () => {
    const doc = await fetchDoc();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/auth/login']?.post?.security).toBeUndefined();
    expect(doc.paths['/api/auth/me']?.get?.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/admin/admins/{id}/status']?.patch).toBeDefined();
    expect(doc.paths['/api/admin/notifications']?.get?.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/admin/notifications']?.get?.responses?.['401']).toBeDefined();
    expect(Object.keys(doc.components.securitySchemes ?? {})).toEqual(['bearerAuth']);
    expect(danglingRefs(doc)).toEqual([]);
  });

  it('when a service documents a path the gateway routes to another service, then the path is left out', async () => {
    const doc = await fetchDoc();
    expect(doc.paths['/api/student/{token}']).toBeUndefined();
  });

  it('when an upstream is down, then the others are served and it appears once it answers', async () => {
    const before = await fetchDoc();
    expect(before.paths['/api/admin/students']).toBeUndefined();
    expect(before.paths['/api/auth/login']).toBeDefined();

    student = await startUpstream((app) => serveOpenApi(app, studentDoc), studentPort);
    await eventually(async () => {
      const doc = await fetchDoc();
      expect(doc.paths['/api/admin/students']?.get?.security).toEqual([{ bearerAuth: [] }]);
      expect(doc.paths['/api/auth/login']).toBeDefined();
    }, 'the student documentation');
  });

  it('when the documentation page is opened, then it and its assets are served by the gateway with the merged document', async () => {
    const redirect = await fetch(`${gateway.url}/api/docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    await redirect.body?.cancel();
    const page = await fetch(`${gateway.url}/api/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui-bundle.js');
    const bundle = await fetch(`${gateway.url}/api/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const init = await (await fetch(`${gateway.url}/api/docs/swagger-ui-init.js`)).text();
    expect(init).toContain('/api/admin/notifications');
    expect(init).toContain('/api/auth/login');
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminToken, sampleAssessment, startAssessment, type Harness } from './harness';

jest.setTimeout(60_000);

let auth: Server;
let h: Harness;
const asked: string[] = [];

beforeAll(async () => {
  // Stands in for auth's /api/auth/me: it names the bearer of the token.
  auth = createServer((req, res) => {
    asked.push(`${req.method} ${req.url} ${req.headers.authorization ? 'with token' : 'without token'}`);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ admin: { _id: 'x', name: 'Grace Hopper', role: 'admin' } }));
  });
  await new Promise<void>((resolve) => auth.listen(0, '127.0.0.1', resolve));
  h = await startAssessment('embedded', {
    config: { AUTH_URL: `http://127.0.0.1:${(auth.address() as AddressInfo).port}` },
  });
});
afterAll(async () => {
  await h?.close();
  await new Promise<void>((resolve) => auth.close(() => resolve()));
});

test('when an admin no event has named saves, then auth names them once and the history shows the name', async () => {
  const token = adminToken();
  expect((await h.call('PUT', '/api/assessment', { token, body: sampleAssessment() })).status).toBe(200);
  expect(
    (await h.call('PUT', '/api/assessment', { token, body: { ...sampleAssessment(), baseVersion: 1 } }))
      .status,
  ).toBe(200);
  const { versions } = (await (await h.call('GET', '/api/assessment/versions', { token })).json()) as {
    versions: Array<{ createdBy: { name: string } }>;
  };
  expect(versions.map((v) => v.createdBy.name)).toEqual(['Grace Hopper', 'Grace Hopper']);
  expect(asked).toEqual(['GET /api/auth/me with token']);
});

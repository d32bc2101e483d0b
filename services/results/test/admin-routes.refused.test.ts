import { randomUUID } from 'node:crypto';
import { adminToken, useResults } from './harness';

jest.setTimeout(60_000);

const h = useResults('embedded');

const id = randomUUID();
const adminCalls: Array<[string, string]> = [
  ['GET', '/api/admin/dashboard'],
  ['GET', '/api/admin/results'],
  ['GET', '/api/admin/results/export.csv'],
  ['GET', '/api/admin/results/analysis'],
  ['GET', `/api/admin/results/${id}`],
  ['DELETE', `/api/admin/results/${id}`],
  ['POST', `/api/admin/results/${id}/resend-certificate`],
];

test.each(adminCalls)('when %s %s is called without a valid token, then 401', async (method, path) => {
  const none = await h.call(method, path, { token: null });
  expect(none.status).toBe(401);
  expect(await none.json()).toEqual({ message: 'Not authorized', code: 'invalid_token' });
  expect((await h.call(method, path, { token: adminToken(undefined, { forged: true }) })).status).toBe(401);
  expect((await h.call(method, path, { token: 'not-a-token' })).status).toBe(401);
});

test.each(adminCalls)(
  'when %s %s is called while the temporary password waits to be changed, then 403',
  async (method, path) => {
    const res = await h.call(method, path, { token: adminToken(undefined, { mustChangePassword: true }) });
    expect(res.status).toBe(403);
  },
);

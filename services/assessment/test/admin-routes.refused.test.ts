import { adminToken, startAssessment, type Harness } from './harness';

jest.setTimeout(60_000);

let h: Harness;
beforeAll(async () => {
  h = await startAssessment('embedded');
});
afterAll(() => h?.close());

const adminCalls: Array<[string, string]> = [
  ['GET', '/api/assessment'],
  ['PUT', '/api/assessment'],
  ['GET', '/api/assessment/versions'],
  ['GET', '/api/assessment/versions/1'],
  ['POST', '/api/assessment/versions/1/activate'],
  ['GET', '/api/assessment/audit'],
  ['POST', '/api/assessment/upload-file'],
  ['DELETE', '/api/assessment/file/x.png'],
];

test.each(adminCalls)(
  'when %s %s is called without a token or with a forged one, then 401',
  async (method, path) => {
    const none = await h.call(method, path);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ message: 'Not authorized', code: 'invalid_token' });
    expect((await h.call(method, path, { token: adminToken(undefined, { forged: true }) })).status).toBe(401);
    expect((await h.call(method, path, { token: 'not-a-token' })).status).toBe(401);
  },
);

test('when a question file is downloaded without a token, then the admin check does not stand in the way', async () => {
  // No version uses this name: past the (absent) check, the answer is the download's own 404.
  const res = await fetch(`${h.url}/api/assessment/files/0b7c3f8e-4e1a-4f2b-9d6c-2a5e8f1b3c7d.png`);
  expect(res.status).toBe(404);
  expect(((await res.json()) as { message: string }).message).toBe('File not found');
});

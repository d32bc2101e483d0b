import { authForFile, uniqueEmail } from './harness';

jest.setTimeout(30_000);

const running = authForFile('embedded');

// Each: what the name is, the rule it breaks, the name. Names a page, mail or certificate would print blank, or that would turn around the sentence they stand in.
const HOSTILE: Array<[string, string, string]> = [
  ['only a zero-width space', 'Name must contain a letter', '\u200b\u200b'],
  ['only a right-to-left override', 'Name must contain a letter', '\u202e\u202e'],
  ['an override left open', 'Name has an unclosed direction control', 'Ann\u202e'],
  ['an isolate left open', 'Name has an unclosed direction control', 'Ann\u2067x'],
];

test.each(HOSTILE)(
  'when an admin is created with a name that is %s, then 400 says %s',
  async (_, message, name) => {
    const res = await running.api.call('POST', '/api/admin/admins', {
      token: running.rootToken,
      body: { name, email: uniqueEmail(), password: 'Unusual-pw-7', role: 'admin' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message, code: 'validation_failed' });
  },
);

test.each(HOSTILE)(
  'when an admin is renamed to a name that is %s, then 400 says %s and the name stays',
  async (_, message, name) => {
    const address = uniqueEmail();
    const admin = await running.api.createAdmin(running.rootToken, {
      name: 'Before Rename',
      email: address,
      password: 'Unusual-pw-7',
      role: 'admin',
    });
    const res = await running.api.call('PUT', `/api/admin/admins/${admin._id}`, {
      token: running.rootToken,
      body: { name, email: address, role: 'admin' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message, code: 'validation_failed' });
    const list = await running.api.call<{ admins: Array<{ _id: string; name: string }> }>(
      'GET',
      '/api/admin/admins',
      {
        token: running.rootToken,
      },
    );
    expect(list.body.admins.find((a) => a._id === admin._id)?.name).toBe('Before Rename');
  },
);

test('when an admin name closes the isolate it opens, then it is kept as typed', async () => {
  const name = 'Ann \u2067سارة\u2069 Lee';
  const res = await running.api.call<{ admin: { name: string } }>('POST', '/api/admin/admins', {
    token: running.rootToken,
    body: { name, email: uniqueEmail(), password: 'Unusual-pw-7', role: 'admin' },
  });
  expect(res.status).toBe(201);
  expect(res.body.admin.name).toBe(name);
});

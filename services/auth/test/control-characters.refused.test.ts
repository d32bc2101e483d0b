import { capturingLogger } from '@readiness/testing';
import { client, ROOT, startAuth, uniqueEmail, type Harness } from './harness';

let h: Harness;
let api: ReturnType<typeof client>;
let rootToken: string;
const { logger, lines: logLines } = capturingLogger('auth-test');

jest.setTimeout(60_000);

beforeAll(async () => {
  h = await startAuth('real', {}, logger);
  api = client(h.url);
  rootToken = await api.login(ROOT.email, ROOT.password);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

/** NUL, a bell, escape, DEL and a C1 control (CSI). */
const CONTROLS = ['\u0000', '\u0007', '\u001b', '\u007f', '\u009b'];

const taint = (value: string, control: string) => `${value.slice(0, 2)}${control}${value.slice(2)}`;

const requests = (id: string) => {
  const admin = { name: 'Grace Hopper', email: uniqueEmail('ctl'), password: 'Cobol-1959!', role: 'admin' };
  return [
    { method: 'POST', path: '/api/auth/login', body: { email: ROOT.email, password: ROOT.password } },
    { method: 'POST', path: '/api/admin/admins', body: admin },
    {
      method: 'PUT',
      path: `/api/admin/admins/${id}`,
      body: { name: admin.name, email: admin.email, role: 'admin' },
    },
    {
      method: 'POST',
      path: '/api/auth/change-password',
      body: { currentPassword: ROOT.password, newPassword: 'Another-pass-42' },
    },
  ];
};

test('when any text field holds a control character, then 400 with {message, code} and no stack in the log', async () => {
  const target = await api.createAdmin(rootToken, {
    name: 'Target Admin',
    email: uniqueEmail('target'),
    password: 'Target-pass-42',
    role: 'admin',
  });
  for (const request of requests(target._id)) {
    for (const field of Object.keys(request.body).filter((k) => k !== 'role')) {
      for (const control of CONTROLS) {
        const body = {
          ...request.body,
          [field]: taint((request.body as Record<string, string>)[field]!, control),
        };
        const res = await api.call(request.method, request.path, { token: rootToken, body });
        const seen = { path: request.path, field, control: control.charCodeAt(0), status: res.status };
        expect(seen).toEqual({ ...seen, status: 400 });
        // No stack, no detail beyond the message: the code and, for a refused body, the field it is about.
        // (A NUL is refused before the body is parsed, so without a field.)
        expect(Object.keys(res.body).sort()).toEqual(
          'field' in res.body ? ['code', 'field', 'message'] : ['code', 'message'],
        );
        if ('field' in res.body) expect(res.body.field).toBe(field);
        expect(res.body.message).toMatch(/control characters|NUL/);
      }
    }
  }
  // The root password never changed: every change-password attempt above was refused.
  expect(await api.login(ROOT.email, ROOT.password)).toEqual(expect.any(String));
  const errors = logLines.filter((l) => /"level":"(error|fatal)"/.test(l) || l.includes('"stack"'));
  expect(errors).toEqual([]);
});

test('when a JSON body holds \\u0000 in a field no schema reads, then 400 before any handler runs', async () => {
  const res = await fetch(`${h.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"email":"${ROOT.email}","password":"${ROOT.password}","extra":{"note":"a\\u0000b"}}`,
  });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({
    message: 'Request must not contain NUL characters',
    code: 'control_character',
  });
});

test('when the e-mail or name holds a NUL, then it is refused with 400 where it used to give a 500', async () => {
  const login = await api.call('POST', '/api/auth/login', {
    body: { email: `root\u0000@example.com`, password: 'whatever-1' },
  });
  expect(login.status).toBe(400);
  const create = await api.call('POST', '/api/admin/admins', {
    token: rootToken,
    body: { name: 'Nul\u0000Name', email: uniqueEmail('nul'), password: 'Nul-pass-4242', role: 'admin' },
  });
  expect(create.status).toBe(400);
});

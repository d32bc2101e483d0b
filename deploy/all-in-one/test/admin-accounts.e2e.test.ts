import { api, SEED as SUPER, sharedOrOwnProduct, type RunningProduct } from './launcher';

jest.setTimeout(120_000);

type Admin = {
  _id: string;
  name: string;
  email: string;
  role: string;
  status: string;
  mustChangePassword: boolean;
};
type Mail = {
  to: string[];
  subject: string;
  text: string;
  html: string;
  date: string;
  attachments: string[];
};

describe('admin accounts end to end through the gateway of `make start`', () => {
  let product: RunningProduct;

  beforeAll(async () => {
    product = await sharedOrOwnProduct();
  });
  afterAll(async () => {
    await product?.stop();
  });

  test('when a super admin creates an admin and resets their password, then the mailed temporary password signs them in, must be changed, and disabling them ends their session', async () => {
    const base = product.url;
    const login = await api<{ token: string; admin: Admin }>(base, 'POST', '/api/auth/login', {
      body: SUPER,
    });
    expect(login.status).toBe(200);
    expect(login.body.admin).toMatchObject({ email: SUPER.email, role: 'super_admin', status: 'active' });
    const superToken = login.body.token;

    const created = await api<{ admin: Admin }>(base, 'POST', '/api/admin/admins', {
      token: superToken,
      body: {
        name: 'Grace Hopper',
        email: 'Grace.Http@Example.edu',
        password: 'initial-pass',
        role: 'admin',
      },
    });
    expect(created.status).toBe(201);
    const grace = created.body.admin;
    expect(grace).toMatchObject({ name: 'Grace Hopper', email: 'grace.http@example.edu', role: 'admin' });

    const reset = await api<{ message: string }>(
      base,
      'POST',
      `/api/admin/admins/${grace._id}/reset-password`,
      {
        token: superToken,
      },
    );
    expect(reset.status).toBe(200);
    expect(typeof reset.body.message).toBe('string');

    let mail: Mail | undefined;
    for (let i = 0; i < 100 && !mail; i++) {
      const inbox = await api<Mail[] | { mails: Mail[] }>(base, 'GET', '/dev/mail');
      const list = Array.isArray(inbox.body) ? inbox.body : inbox.body.mails;
      mail = list.find((m) => m.to.some((to) => to.includes('grace.http@example.edu')));
      if (!mail) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mail).toBeDefined();
    // The password stands alone on its line and may begin or end with a symbol.
    const temporary = /^\s*temporary password:\s*(\S+)\s*$/im.exec(mail!.text)?.[1];
    expect(temporary).toBeDefined();
    expect(mail!.html).toContain('Grace Hopper');

    const oldPassword = await api(base, 'POST', '/api/auth/login', {
      body: { email: 'grace.http@example.edu', password: 'initial-pass' },
    });
    expect(oldPassword.status).toBe(401);

    const graceLogin = await api<{ token: string; admin: Admin }>(base, 'POST', '/api/auth/login', {
      body: { email: 'grace.http@example.edu', password: temporary },
    });
    expect(graceLogin.status).toBe(200);
    expect(graceLogin.body.admin.mustChangePassword).toBe(true);

    const changed = await api<{ token: string; admin: Admin }>(base, 'POST', '/api/auth/change-password', {
      token: graceLogin.body.token,
      body: { currentPassword: temporary, newPassword: 'grace-chose-this' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.admin.mustChangePassword).toBe(false);
    const graceToken = changed.body.token;

    const me = await api<{ admin: Admin }>(base, 'GET', '/api/auth/me', { token: graceToken });
    expect(me.status).toBe(200);
    expect(me.body.admin.email).toBe('grace.http@example.edu');

    const forbidden = await api(base, 'GET', '/api/admin/admins', { token: graceToken });
    expect(forbidden.status).toBe(403);

    const disabled = await api(base, 'PATCH', `/api/admin/admins/${grace._id}/status`, {
      token: superToken,
      body: { status: 'disabled' },
    });
    expect(disabled.status).toBe(200);
    const after = await api(base, 'GET', '/api/auth/me', { token: graceToken });
    expect(after.status).toBe(401);
  });

  test('when the caught-mail pages are asked for, then the JSON list and the page answer', async () => {
    const page = await fetch(`${product.url}/dev/mail/view`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  test('when a path is outside the API, then the web app or a JSON 404 answers, never a hang', async () => {
    const unknownApi = await api(product.url, 'GET', '/api/nothing-here');
    expect([404, 503]).toContain(unknownApi.status);
    expect(unknownApi.body).toHaveProperty('message');
  });
});

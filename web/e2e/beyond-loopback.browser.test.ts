import type { Browser } from 'playwright-core';
import { api, newPage, shown, signIn, startProductAndBrowser, SUPER, type RunningProduct } from './support';

jest.setTimeout(180_000);

/**
 * `make start` with HOST beyond loopback (a demonstration on a network): the caught mail holds every student's
 * personal link and the API document describes every call, so both answer signed-in admins only. On loopback (every
 * other file of this lane) they stay open to the person at the machine.
 */
describe('the all-in-one listening beyond loopback', () => {
  let product: RunningProduct;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    ({ product, browser } = await startProductAndBrowser({ HOST: '0.0.0.0' }, { own: true }));
    const login = await api<{ token: string }>(product.url, 'POST', '/api/auth/login', {
      body: { email: SUPER.email, password: SUPER.password },
    });
    expect(login.status).toBe(200);
    token = login.body.token;
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('when the caught mail and the API document are asked for without an admin token, then they are refused, and with one they answer', async () => {
    for (const route of ['/dev/mail', '/api/docs/openapi.json']) {
      const anonymous = await api(product.url, 'GET', route);
      expect({ route, status: anonymous.status }).toEqual({ route, status: 401 });
      const forged = await api(product.url, 'GET', route, { token: `${token.slice(0, -4)}AAAA` });
      expect({ route, status: forged.status }).toEqual({ route, status: 401 });
      const signedIn = await fetch(`${product.url}${route}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect({ route, status: signedIn.status }).toEqual({ route, status: 200 });
    }
    const withoutToken = await (await fetch(`${product.url}/dev/mail/view`)).text();
    expect(withoutToken).not.toContain('@');
    const page = await (await fetch(`${product.url}/api/docs/`)).text();
    expect(page).not.toContain('/api/auth/login');
  });

  it('when a visitor who is not signed in opens the caught mail or the docs page, then each says to sign in, and after signing in shows its content', async () => {
    const { context, page } = await newPage(browser, product.url);
    try {
      await page.goto('/dev/mail/view');
      await shown(page.getByText('Caught mail is for signed-in admins.'));
      await page.goto('/api/docs/');
      await shown(page.getByText('The API documentation is for signed-in admins.'));

      await signIn(page, SUPER.email, SUPER.password);
      await page.goto('/dev/mail/view');
      await shown(page.getByRole('heading', { name: /^Caught mail \(\d+\)$/ }));
      await page.goto('/api/docs/');
      // Swagger UI loads its bundle (about 1.5 MB) and the merged document of every service before it lists a path.
      await shown(page.getByText('/api/auth/login', { exact: true }), 60_000);
    } finally {
      await context.close();
    }
  });

  it('when an admin is created or renamed with an e-mail already taken, then a 409 answers and the database logs no error', async () => {
    const before = product.output().length;
    const created = await api(product.url, 'POST', '/api/admin/admins', {
      token,
      body: { name: 'Second Owner', email: SUPER.email, password: 'a-long-enough-password-1', role: 'admin' },
    });
    expect(created.status).toBe(409);
    expect(created.body).toMatchObject({ message: 'An admin with this email already exists' });

    const other = await api<{ admin: { _id: string } }>(product.url, 'POST', '/api/admin/admins', {
      token,
      body: {
        name: 'Other Admin',
        email: `other.${Date.now()}@example.edu`,
        password: 'a-long-enough-password-1',
        role: 'admin',
      },
    });
    expect(other.status).toBe(201);
    const renamed = await api(product.url, 'PUT', `/api/admin/admins/${other.body.admin._id}`, {
      token,
      body: { name: 'Other Admin', email: SUPER.email, role: 'admin' },
    });
    expect(renamed.status).toBe(409);

    const logged = product.output().slice(before);
    expect(logged).not.toMatch(/duplicate key|ERROR/);
  });
});

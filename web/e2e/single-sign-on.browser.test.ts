/*
 * Single sign-on in a real browser: the product as `make start` runs it, configured with a real OpenID Provider
 * (oidc-provider, started here) whose sign-in page stands for the institution's. An admin asks for a page, signs
 * in through the provider and lands on it; someone the provider knows but Readiness does not is told why on the
 * login page; signing out offers to sign out of the provider too.
 */
import type { Browser } from 'playwright-core';
import { eventually, freePort, startTestOidcProvider, type TestOidcProvider } from '@readiness/testing';
import {
  createAdminPastFirstSignIn,
  MOBILE,
  SUPER,
  api,
  atPath,
  expectAccessible,
  launchBrowser,
  newPage,
  saveScreenshot,
  signIn,
  shown,
  startProduct,
  toast,
  assertBuilt,
  type RunningProduct,
} from './support';

jest.setTimeout(180_000);

const PROVIDER_NAME = 'Test University';
const ADA = { name: 'Ada Lovelace', email: 'ada.sso@example.edu' };
const STRANGER = { email: 'visitor@example.edu' };

let provider: TestOidcProvider;
let ownerToken: string;
let product: RunningProduct;
let browser: Browser;

beforeAll(async () => {
  assertBuilt();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  provider = await startTestOidcProvider({
    clientId: 'readiness',
    clientSecret: 'browser-test-secret',
    redirectUris: [`${origin}/api/auth/oidc/callback`],
    postLogoutRedirectUris: [`${origin}/admin/login`],
    people: [
      { sub: 'ada', email: ADA.email, email_verified: true, name: ADA.name },
      { sub: 'visitor', email: STRANGER.email, email_verified: true, name: 'A Visitor' },
    ],
  });
  [product, browser] = await Promise.all([
    startProduct({
      PORT: String(port),
      PUBLIC_ORIGIN: origin,
      SEED_ADMIN_EMAIL: SUPER.email,
      SEED_ADMIN_PASSWORD: SUPER.password,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: 'readiness',
      OIDC_CLIENT_SECRET: 'browser-test-secret',
      OIDC_DISPLAY_NAME: PROVIDER_NAME,
    }),
    launchBrowser(),
  ]);
  const login = await api<{ token: string }>(product.url, 'POST', '/api/auth/login', {
    body: { email: SUPER.email, password: SUPER.password },
  });
  ownerToken = login.body.token;
  await createAdminPastFirstSignIn(product.url, ownerToken, {
    ...ADA,
    password: 'not-used-by-sso-1',
    role: 'admin',
  });
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
  await provider?.stop();
});

/** On the provider's page: who is signing in. */
async function atProvider(page: import('playwright-core').Page, email: string): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(provider.issuer));
  await page.getByLabel('Institution e-mail').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
}

it('signs an admin in through the provider and opens the page they asked for; signing out offers the provider’s sign-out', async () => {
  const { context, page, consoleErrors } = await newPage(browser, product.url);
  try {
    await page.goto('/admin/results');
    await atPath(page, '/admin/login');
    const button = await shown(page.getByRole('link', { name: `Sign in with ${PROVIDER_NAME}` }));
    await expectAccessible(page, 'login with single sign-on');
    await saveScreenshot(page, 'login-single-sign-on', 'desktop');
    await button.click();
    await atProvider(page, ADA.email);

    await atPath(page, '/admin/results');
    await shown(toast(page, `Welcome back, ${ADA.name}!`));
    await shown(page.getByRole('heading', { name: 'Results Management' }));
    // The provider's own page may miss a favicon; Readiness's pages, once signed in, fail nothing.
    expect(consoleErrors.filter((e) => !e.includes('404'))).toEqual([]);

    await page.getByRole('button', { name: 'Logout' }).click();
    await atPath(page, '/admin/login');
    const offer = await shown(page.getByRole('link', { name: `Sign out of ${PROVIDER_NAME} too` }));
    expect(await offer.getAttribute('href')).toContain(`${provider.issuer}/session/end`);
  } finally {
    await context.close();
  }
});

it('tells someone the provider knows but Readiness does not why they are not signed in', async () => {
  const { context, page } = await newPage(browser, product.url, MOBILE);
  try {
    await page.goto('/admin/login');
    await page.getByRole('link', { name: `Sign in with ${PROVIDER_NAME}` }).click();
    await atProvider(page, STRANGER.email);
    await atPath(page, '/admin/login');
    await shown(
      page.getByRole('alert').filter({ hasText: 'no Readiness admin account uses your e-mail address' }),
    );
    await expectAccessible(page, 'login after a refused single sign-on (phone)');
    await saveScreenshot(page, 'login-single-sign-on-refused', 'mobile');
    // Nothing was signed in: a guarded page still sends the visitor to the login page.
    await page.goto('/admin/dashboard');
    await atPath(page, '/admin/login');
  } finally {
    await context.close();
  }
});

it('shows a super admin the audit log: the sign-ins and what other services announced, filtered and scanned', async () => {
  const invited = await api<{ student: { _id: string } }>(product.url, 'POST', '/api/admin/students/invite', {
    token: ownerToken,
    body: { name: 'Audit Student', email: 'audit.student@example.edu', phoneNumber: '' },
  });
  expect(invited.status).toBe(201);
  const removed = await api(product.url, 'DELETE', `/api/admin/students/${invited.body.student._id}`, {
    token: ownerToken,
  });
  expect(removed.status).toBe(200);

  const { context, page } = await newPage(browser, product.url);
  try {
    await signIn(page, SUPER.email, SUPER.password);
    await page.goto('/admin/admins');
    await page.getByRole('link', { name: 'Audit Log' }).click();
    await atPath(page, '/admin/audit');
    const table = page.getByRole('table', { name: 'Audit log, newest first' });
    // The student service's events reach auth in the background: the page shows them once they have.
    await eventually(
      async () => {
        await page.reload();
        await table.waitFor();
        return (await table.getByText('Student deleted').count()) === 1;
      },
      'the deleted student in the audit log',
      20_000,
    );
    await shown(table.getByText('Student invited'));
    await shown(table.getByText('with a password').first());
    await expectAccessible(page, 'audit log');
    await saveScreenshot(page, 'audit-log', 'desktop');

    await page.getByLabel('Action').selectOption({ label: 'Student deleted' });
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1);
    await shown(table.getByText('audit.student@example.edu'));

    await page.setViewportSize(MOBILE);
    await expectAccessible(page, 'audit log (phone)');
    await saveScreenshot(page, 'audit-log', 'mobile');
  } finally {
    await context.close();
  }
});

/*
 * LMS connections in a real browser against the product as `make start` runs it (the integrations service in it): the
 * seeded super admin opens Admin Management → LMS connections, copies the URLs to paste into an LMS (on the product's
 * own origin), adds a connection through the form, sees it in the table, disables and deletes it. The screen is
 * scanned for accessibility and checked for sideways overflow at 1280 and 360 px.
 *
 * On the lane's shared product, before any other file adds a connection (web/e2e/sequencer.js): it starts from the
 * empty table, and deletes the connection it adds.
 */
import type { Page } from 'playwright-core';
import {
  DESKTOP,
  MOBILE,
  SUPER,
  atPath,
  expectAccessible,
  overflowing,
  productForFile,
  saveScreenshot,
  shown,
  signIn,
  startProductAndBrowser,
  toast,
} from './support';

jest.setTimeout(180_000);

const file = productForFile(() => startProductAndBrowser());

const MOODLE = {
  name: 'Campus Moodle',
  issuer: 'https://moodle.example.edu',
  clientId: 'readiness-e2e-client',
  deploymentIds: ['3', '4'],
  authUrl: 'https://moodle.example.edu/mod/lti/auth.php',
  jwksUrl: 'https://moodle.example.edu/mod/lti/certs.php',
  tokenUrl: 'https://moodle.example.edu/mod/lti/token.php',
};

const connectionRow = (page: Page, name: string) =>
  page.getByRole('table', { name: 'LMS connections' }).getByRole('row').filter({ hasText: name });

/** Presses the row's `action` (Disable, Delete) and confirms it in its dialog. */
async function confirmed(page: Page, action: 'Disable' | 'Delete', name: string): Promise<void> {
  await page.getByRole('button', { name: `${action} ${name}` }).click();
  await page
    .getByRole('dialog', { name: `${action} LMS connection` })
    .getByRole('button', { name: action, exact: true })
    .click();
}

async function openConnections(page: Page): Promise<void> {
  await page.goto('/admin/admins');
  await page.getByRole('link', { name: 'LMS connections' }).click();
  await atPath(page, '/admin/lms-connections');
  await shown(page.getByRole('heading', { name: 'LMS connections', level: 1 }));
}

test('when the super admin copies the URLs, then each is on the product origin, as shown', async () => {
  const { context, page } = await file.open(DESKTOP);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: file.url });
  await signIn(page, SUPER.email, SUPER.password);
  await openConnections(page);
  const origin = new URL(file.url).origin;
  const box = page.getByRole('region', { name: 'What to paste into your LMS' });
  const copies = [
    ['Copy login initiation URL', '/api/lti/login'],
    ['Copy redirect (launch) URL', '/api/lti/launch'],
    ['Copy public keyset URL', '/api/lti/jwks'],
  ] as const;
  for (const [button, path] of copies) {
    await shown(box.getByText(`${origin}${path}`, { exact: true }));
    await box.getByRole('button', { name: button }).click();
    await shown(toast(page, 'Copied').first());
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${origin}${path}`);
  }
  // What the LMS is given answers: the public keys are there.
  const jwks = await page.evaluate(async (url) => (await fetch(url)).json(), `${origin}/api/lti/jwks`);
  expect((jwks as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
});

test('when a connection is added, disabled and deleted through the screen, then the table follows, at 1280 and 360 px', async () => {
  const page = await file.page(DESKTOP);
  await signIn(page, SUPER.email, SUPER.password);
  await openConnections(page);
  await shown(page.getByText('No LMS connected yet'));
  await expectAccessible(page, 'LMS connections, empty');

  await page.getByRole('button', { name: 'Add connection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add LMS connection' });
  await dialog.getByRole('button', { name: 'Add connection' }).click();
  await shown(dialog.getByText('Name is required'));
  await shown(dialog.getByText('At least one deployment ID is required'));
  await dialog.getByLabel('Authorization URL').fill('not a url');
  await dialog.getByRole('button', { name: 'Add connection' }).click();
  await shown(dialog.getByText('Authorization URL must be a URL'));
  await expectAccessible(page, 'the Add LMS connection form with its errors');

  await dialog.getByLabel('Name').fill(MOODLE.name);
  await dialog.getByLabel('Issuer').fill(MOODLE.issuer);
  await dialog.getByLabel('Client ID').fill(MOODLE.clientId);
  await dialog.getByLabel('Deployment IDs').fill(MOODLE.deploymentIds.join('\n'));
  await dialog.getByLabel('Authorization URL').fill(MOODLE.authUrl);
  await dialog.getByLabel('Key set (JWKS) URL').fill(MOODLE.jwksUrl);
  await dialog.getByLabel('Access token URL').fill(MOODLE.tokenUrl);
  await saveScreenshot(page, 'lms-connection-add', 'desktop', true);
  await dialog.getByRole('button', { name: 'Add connection' }).click();
  await shown(toast(page, 'LMS connection added'));
  const row = connectionRow(page, MOODLE.name);
  await shown(row.getByText('Active', { exact: true }));
  await shown(row.getByText(MOODLE.clientId));
  await shown(row.getByText('3, 4'));
  await expectAccessible(page, 'LMS connections with one');
  expect(await overflowing(page)).toEqual([]);
  await saveScreenshot(page, 'lms-connections', 'desktop');

  await page.setViewportSize(MOBILE);
  await shown(row.getByText(MOODLE.issuer));
  expect(await overflowing(page)).toEqual([]);
  await expectAccessible(page, 'LMS connections on a phone');
  await saveScreenshot(page, 'lms-connections', 'mobile');
  await page.getByRole('button', { name: `Edit ${MOODLE.name}` }).click();
  await shown(page.getByRole('dialog', { name: 'Edit LMS connection' }));
  expect(await overflowing(page)).toEqual([]);
  await saveScreenshot(page, 'lms-connection-edit', 'mobile', true);
  await page
    .getByRole('dialog', { name: 'Edit LMS connection' })
    .getByRole('button', { name: 'Cancel' })
    .click();
  await page.setViewportSize(DESKTOP);

  await confirmed(page, 'Disable', MOODLE.name);
  await shown(toast(page, 'LMS connection disabled'));
  await shown(row.getByText('Disabled', { exact: true }));

  await confirmed(page, 'Delete', MOODLE.name);
  await shown(toast(page, 'LMS connection deleted'));
  await shown(page.getByText('No LMS connected yet'));
  const token = await file.superToken();
  const listed = await page.evaluate(
    async (bearer) =>
      (await fetch('/api/admin/lti/platforms', { headers: { authorization: `Bearer ${bearer}` } })).json(),
    token,
  );
  expect((listed as { platforms: unknown[] }).platforms).toEqual([]);
});

test('when Admin Management is opened on a phone, then its LMS connections link fits and leads to the screen', async () => {
  const page = await file.page(MOBILE);
  await signIn(page, SUPER.email, SUPER.password);
  await openConnections(page);
  expect(await overflowing(page)).toEqual([]);
  await page.goBack();
  await atPath(page, '/admin/admins');
  await shown(page.getByRole('link', { name: 'LMS connections' }));
  expect(await overflowing(page)).toEqual([]);
  await saveScreenshot(page, 'admin-management-lms-link', 'mobile');
});

/*
 * Issue 23, sessions, in a real browser against the product with one-minute tokens (JWT_TTL_SECONDS=60, the
 * least it takes): the expiry dialog comes before the session ends and one key press keeps the admin signed in;
 * an admin signed in from two browsers sees both sessions on the Security page, signs the other one out and it
 * ends there, then signs out everywhere. Each screen gets an accessibility scan at 1280 and 360 px.
 */
import type { Page } from 'playwright-core';
import {
  DESKTOP,
  SUPER,
  MOBILE,
  api,
  atPath,
  expectAccessible,
  shown,
  signIn,
  productForFile,
  startProductAndBrowser,
  toast,
} from './support';

jest.setTimeout(240_000);

const TTL_SECONDS = 60;
/** Tokens this short are warned about at half their life; the margin is for a busy machine. */
const WARNING_WITHIN_MS = (TTL_SECONDS / 2 + 20) * 1000;

const file = productForFile(() => startProductAndBrowser({ JWT_TTL_SECONDS: String(TTL_SECONDS) }));
const freshPage = (viewport = DESKTOP) => file.page(viewport);

const storedToken = (page: Page) => page.evaluate(() => window.localStorage.getItem('admin_token'));
const expiryOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number }).exp;

test('when the session is about to end, then a dialog says so and one key press keeps the admin signed in', async () => {
  const page = await freshPage();
  await signIn(page, SUPER.email, SUPER.password);
  await shown(page.getByRole('heading', { level: 1, name: 'Dashboard' }));

  const dialog = page.getByRole('dialog', { name: 'Your session is about to end' });
  await dialog.waitFor({ state: 'visible', timeout: WARNING_WITHIN_MS });
  const before = (await storedToken(page))!;
  await shown(dialog.getByText(/you will be signed out at \d{1,2}:\d{2}\s[AP]M/));
  // The one key press goes to 'Stay signed in'.
  expect(await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Stay signed in');
  // Focus stays in the dialog.
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
  }
  await dialog.getByRole('button', { name: 'Stay signed in' }).focus();
  await expectAccessible(page, 'the session expiry dialog at 1280 px');
  await page.setViewportSize(MOBILE);
  await expectAccessible(page, 'the session expiry dialog at 360 px');
  await page.setViewportSize(DESKTOP);

  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'hidden' });
  const after = (await storedToken(page))!;
  expect(after).not.toBe(before);
  expect(expiryOf(after)).toBeGreaterThan(expiryOf(before));
  // Past the end of the token the dialog warned about, and the admin is still signed in. The renewed token is
  // warned about in its turn 30 s after the renewal, which may be now: the page is opened by its address, which
  // no dialog stands in the way of, rather than by a click.
  await page.waitForTimeout(Math.max(0, expiryOf(before) * 1000 + 6_000 - Date.now()));
  const still = await api(file.url, 'GET', '/api/auth/me', { token: (await storedToken(page))! });
  expect(still.status).toBe(200);
  await page.goto('/admin/students');
  await atPath(page, '/admin/students');
  await shown(page.getByRole('heading', { level: 1, name: 'Student Management' }));
});

test('when an admin is signed in from two browsers, then the Security page lists both and signing out the other ends it there', async () => {
  const ada = { name: 'Ada Lovelace', email: 'ada-sessions@example.edu', password: 'analytical-engine-1843' };
  await file.createAdmin(ada);
  const laptop = await freshPage();
  const phone = await freshPage(MOBILE);
  await signIn(phone, ada.email, ada.password);
  await signIn(laptop, ada.email, ada.password);

  await laptop.getByRole('link', { name: 'Security' }).click();
  await atPath(laptop, '/admin/security');
  const rows = laptop.getByRole('table', { name: 'Your active sessions' }).getByRole('row');
  await shown(rows.filter({ hasText: 'This device' }));
  expect(await rows.count()).toBe(3); // the header and two sessions
  const current = rows.filter({ hasText: 'This device' });
  expect(await current.textContent()).toContain('Chrome on Linux');
  expect(await current.getByRole('button', { name: /^Sign out/ }).count()).toBe(0);
  await expectAccessible(laptop, 'the Security page at 1280 px');

  await phone.goto('/admin/security');
  await shown(phone.getByRole('table', { name: 'Your active sessions' }).getByText('This device'));
  await expectAccessible(phone, 'the Security page at 360 px');

  const other = rows.filter({ hasNotText: 'This device' }).filter({ has: laptop.getByRole('cell') });
  await other.getByRole('button', { name: /^Sign out/ }).click();
  await shown(toast(laptop, 'Signed out of Chrome on Linux'));
  await laptop.waitForFunction(() => document.querySelectorAll('table[class="table"] tbody tr').length === 1);

  // The phone's session has ended: its next call is refused and it is back at the login page.
  await phone.getByRole('button', { name: 'Sign out everywhere' }).click();
  const phoneConfirm = phone.getByRole('dialog', { name: 'Sign out everywhere' });
  await phoneConfirm.getByRole('button', { name: 'Sign out everywhere' }).click();
  await atPath(phone, /^\/admin\/login/);
  expect(await storedToken(phone)).toBeNull();
  // …and that refused call ended nothing else.
  await laptop.reload();
  await shown(laptop.getByRole('table', { name: 'Your active sessions' }).getByText('This device'));

  // Sign out everywhere, behind its confirmation, ends this session too.
  await laptop.getByRole('button', { name: 'Sign out everywhere' }).click();
  const confirm = laptop.getByRole('dialog', { name: 'Sign out everywhere' });
  await expectAccessible(laptop, 'the sign-out-everywhere confirmation');
  await confirm.getByRole('button', { name: 'Sign out everywhere' }).click();
  await atPath(laptop, /^\/admin\/login/);
  expect(await storedToken(laptop)).toBeNull();
});

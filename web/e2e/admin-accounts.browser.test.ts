/*
 * Issue 4 in a real browser against the product as `make start` runs it: a super admin signs in,
 * creates and edits an admin, resets their password (the temporary one arrives by e-mail), the new
 * admin signs in and replaces it, sees only what a regular admin may, and loses the session when the
 * super admin disables the account. Every screen on the way gets an accessibility scan.
 *
 * One product serves the whole file (it takes a while to start), but no test depends on another: each
 * makes the admins it needs (through the API unless making them is what it tests), under its own
 * address, and starts signed out in its own browser context, so a test that fails leaves nothing
 * half-done for the next one.
 */
import type { Page } from 'playwright-core';
import {
  SUPER,
  api,
  atPath,
  expectAccessible,
  saveScreenshot,
  shown,
  signIn,
  productForFile,
  submitLogin,
  temporaryPasswordIn,
  toast,
  waitForMail,
} from './support';

jest.setTimeout(180_000);

const GRACE = { name: 'Grace Hopper', renamed: 'Grace Brewster Hopper', email: 'grace@example.edu' };
const ADA = { name: 'Ada Lovelace', email: 'ada@example.edu', password: 'analytical-engine-1843' };
const MARGARET = {
  name: 'Margaret Hamilton',
  email: 'margaret@example.edu',
  password: 'apollo-guidance-1969',
  chosenPassword: 'margaret-chose-this',
};
const KATHERINE = { name: 'Katherine Johnson', email: 'katherine@example.edu', password: 'orbit-1962' };

const file = productForFile();
const freshPage = () => file.page();

const adminRow = (page: Page, email: string) => page.getByRole('row').filter({ hasText: email });

async function openAdminManagement(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admins' }).click();
  await atPath(page, '/admin/admins');
  await shown(adminRow(page, SUPER.email));
}

test('when the super admin mistypes the password, then the server message shows as a toast; with the right one, the dashboard opens', async () => {
  const page = await freshPage();
  await page.goto('/admin/login');
  await shown(page.getByRole('heading', { name: 'Admin Portal' }));
  await expectAccessible(page, 'login');

  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await shown(page.getByText('Email is required'));
  await shown(page.getByText('Password is required'));
  await expectAccessible(page, 'login with validation errors');

  await submitLogin(page, SUPER.email, 'not-the-password');
  await shown(toast(page, 'Invalid email or password'));
  expect(new URL(page.url()).pathname).toBe('/admin/login');
  await expectAccessible(page, 'login with an error toast');

  // The eye button shows what was typed, so a mistyped password can be spotted.
  const password = page.getByLabel('Password', { exact: true });
  await page.getByRole('button', { name: /show password/i }).click();
  expect(await password.getAttribute('type')).toBe('text');

  await password.fill(SUPER.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await atPath(page, '/admin/dashboard');
  await shown(toast(page, `Welcome back, ${SUPER.name}!`));
  await shown(page.getByRole('heading', { name: 'Dashboard', level: 1 }));
  await expectAccessible(page, 'dashboard with the welcome toast');

  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await shown(sidebar.getByText('Super Admin', { exact: true }).last());
  for (const entry of ['Dashboard', 'Students', 'Assessments', 'Results', 'Admins']) {
    await shown(sidebar.getByRole('link', { name: entry, exact: true }));
  }
  await expectAccessible(page, 'dashboard');
});

test('when the super admin creates an admin and edits them, then the table shows the new admin and then the new name; their own demotion is refused at Role', async () => {
  const page = await freshPage();
  await signIn(page, SUPER.email, SUPER.password);
  await openAdminManagement(page);
  await shown(page.getByRole('heading', { name: 'Admin Management', level: 1 }));
  await expectAccessible(page, 'admin management');

  await page.getByRole('button', { name: 'Add Admin' }).click();
  const create = page.getByRole('dialog', { name: 'Create Admin' });
  await shown(create);
  await expectAccessible(page, 'create admin dialog');

  await create.getByRole('button', { name: 'Create Admin' }).click();
  await shown(create.getByText('Role is required'));
  await shown(create.getByText('Password is required'));
  await expectAccessible(page, 'create admin dialog with validation errors');

  await create.getByLabel('Name').fill(GRACE.name);
  await create.getByLabel('Email').fill(GRACE.email);
  await create.getByLabel('Password', { exact: true }).fill('grace-initial-pass');
  await create.getByLabel('Role').selectOption({ label: 'Regular Admin' });
  await create.getByRole('button', { name: 'Create Admin' }).click();

  await shown(toast(page, `Admin ${GRACE.name} created successfully`));
  await create.waitFor({ state: 'detached' });
  const row = adminRow(page, GRACE.email);
  await shown(row.getByText(GRACE.name));
  await shown(row.getByText('Regular Admin'));
  await shown(row.getByText('Active'));
  await shown(row.getByText('Never'));

  await row.getByRole('button', { name: `Edit ${GRACE.name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Admin' });
  await shown(edit);
  expect(await edit.getByLabel('Name').inputValue()).toBe(GRACE.name);
  expect(await edit.getByLabel('Email').inputValue()).toBe(GRACE.email);
  await expectAccessible(page, 'edit admin dialog');

  await edit.getByLabel('Name').fill(GRACE.renamed);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await shown(toast(page, 'Admin updated successfully'));
  await edit.waitFor({ state: 'detached' });
  await shown(adminRow(page, GRACE.email).getByText(GRACE.renamed));

  // The change is the server's, not just the screen's.
  await page.reload();
  await shown(adminRow(page, GRACE.email).getByText(GRACE.renamed));

  const search = page.getByRole('searchbox', { name: 'Search admins' });
  await search.fill('BREWSTER');
  await shown(adminRow(page, GRACE.email));
  expect(await adminRow(page, SUPER.email).count()).toBe(0);
  await search.fill('nobody by this name');
  await shown(page.getByText('No admins found'));

  // The server's refusal of a super admin's own demotion shows at Role, which takes the focus; no toast.
  await search.fill('');
  await adminRow(page, SUPER.email)
    .getByRole('button', { name: `Edit ${SUPER.name}` })
    .click();
  const own = page.getByRole('dialog', { name: 'Edit Admin' });
  const role = own.getByLabel('Role');
  await role.selectOption({ label: 'Regular Admin' });
  await own.getByRole('button', { name: 'Save Changes' }).click();
  await shown(own.getByText('You cannot remove your own super admin role'));
  expect(await role.getAttribute('aria-invalid')).toBe('true');
  expect(await role.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await toast(page, /super admin role/).count()).toBe(0);
});

test('when the super admin resets the password, then nothing happens before the confirmation, and afterwards the temporary password is e-mailed', async () => {
  await file.createAdmin(ADA);
  const page = await freshPage();
  const resetCalls: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/reset-password')) resetCalls.push(`${req.method()} ${req.url()}`);
  });
  await signIn(page, SUPER.email, SUPER.password);
  await openAdminManagement(page);
  const row = adminRow(page, ADA.email);
  const resetButton = row.getByRole('button', { name: `Reset password for ${ADA.name}` });

  await resetButton.click();
  const confirm = page.getByRole('dialog', { name: 'Reset Password' });
  await shown(confirm);
  await shown(confirm.getByText(ADA.name));
  await shown(confirm.getByText(ADA.email, { exact: false }));
  await expectAccessible(page, 'reset password confirmation');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'detached' });
  expect(resetCalls).toEqual([]);

  await resetButton.click();
  await confirm.getByRole('button', { name: 'Reset Password' }).click();
  await confirm.waitFor({ state: 'detached' });
  expect(resetCalls).toHaveLength(1);
  // The server's message, or the screen's own; both name the address the mail went to.
  await shown(toast(page, ADA.email));

  const mail = await waitForMail(file.url, ADA.email, (m) => /temporary password/i.test(m.text));
  expect(temporaryPasswordIn(mail)).not.toBe('');
  expect(mail.html).toContain(ADA.name);
});

test('when the admin signs in with the temporary password, then they must choose a new one, and as a regular admin they see no admin management', async () => {
  const id = await file.createAdmin(MARGARET);
  const reset = await api(file.url, 'POST', `/api/admin/admins/${id}/reset-password`, {
    token: await file.superToken(),
  });
  expect(reset.status).toBe(200);
  const temporaryPassword = temporaryPasswordIn(await waitForMail(file.url, MARGARET.email));
  const page = await freshPage();

  // The old password stopped working with the reset.
  await page.goto('/admin/login');
  await submitLogin(page, MARGARET.email, MARGARET.password);
  await shown(toast(page, 'Invalid email or password'));

  await page.getByLabel('Password', { exact: true }).fill(temporaryPassword);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await atPath(page, '/admin/change-password');
  await shown(page.getByRole('heading', { name: 'Change Password' }));
  await shown(page.getByText('You signed in with a temporary password'));
  await expectAccessible(page, 'change password');

  // Any admin page leads back here until the password is replaced.
  await page.goto('/admin/students');
  await atPath(page, '/admin/change-password');

  await page.getByLabel('Temporary password').fill(temporaryPassword);
  await page.getByLabel('New password', { exact: true }).fill(MARGARET.chosenPassword);
  await page.getByLabel('Confirm new password').fill('something-else');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await shown(page.getByText('Passwords do not match'));
  await expectAccessible(page, 'change password with validation errors');

  await page.getByLabel('Confirm new password').fill(MARGARET.chosenPassword);
  await page.getByRole('button', { name: 'Update Password' }).click();
  await shown(toast(page, 'Password changed successfully'));
  // The guard remembered /admin/students when it sent her to change the password.
  await atPath(page, '/admin/students');

  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await shown(sidebar.getByText(MARGARET.name));
  await shown(sidebar.getByText('Admin', { exact: true }));
  await shown(sidebar.getByRole('link', { name: 'Dashboard', exact: true }));
  expect(await sidebar.getByRole('link', { name: 'Admins', exact: true }).count()).toBe(0);

  await page.goto('/admin/admins');
  await atPath(page, '/admin/dashboard');
  await shown(page.getByRole('heading', { name: 'Dashboard', level: 1 }));
  expect(await page.getByRole('heading', { name: 'Admin Management' }).count()).toBe(0);
});

test('when the super admin disables an admin, then the admin is sent to sign-in at their next call and cannot sign in until enabled again', async () => {
  await file.createAdmin(KATHERINE);

  const katherine = await freshPage();
  await signIn(katherine, KATHERINE.email, KATHERINE.password);
  const sidebar = katherine.getByRole('complementary', { name: 'Sidebar' });
  await shown(sidebar.getByText('Admin', { exact: true }));
  expect(await sidebar.getByRole('link', { name: 'Admins', exact: true }).count()).toBe(0);

  const owner = await freshPage();
  await signIn(owner, SUPER.email, SUPER.password);
  await openAdminManagement(owner);
  // Nobody can lock themselves out.
  expect(
    await adminRow(owner, SUPER.email)
      .getByRole('button', { name: /^Disable / })
      .isDisabled(),
  ).toBe(true);

  const row = adminRow(owner, KATHERINE.email);
  await row.getByRole('button', { name: `Disable ${KATHERINE.name}` }).click();
  // Asked first, naming her and what it does.
  const confirm = owner.getByRole('dialog', { name: 'Disable Admin' });
  await shown(confirm.getByText('Their sessions end at once'));
  await shown(confirm.getByText(KATHERINE.name));
  await expectAccessible(owner, 'the disable confirmation');
  await saveScreenshot(owner, 'disable-admin-dialog', 'desktop', true);
  await confirm.getByRole('button', { name: 'Disable', exact: true }).click();
  await shown(toast(owner, 'Admin disabled successfully'));
  await shown(row.getByText('Disabled', { exact: true }));
  await shown(row.getByRole('button', { name: `Enable ${KATHERINE.name}` }));

  // Her screen is still open; the next thing she asks the server for is refused and ends the session.
  await sidebar.getByRole('link', { name: 'Change password' }).click();
  await atPath(katherine, '/admin/change-password');
  await katherine.getByLabel('Current password').fill(KATHERINE.password);
  await katherine.getByLabel('New password', { exact: true }).fill('another-password');
  await katherine.getByLabel('Confirm new password').fill('another-password');
  await katherine.getByRole('button', { name: 'Update Password' }).click();
  await atPath(katherine, '/admin/login');
  expect(await katherine.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();

  // With her own password she is told the account is disabled; a wrong one learns nothing of it.
  await submitLogin(katherine, KATHERINE.email, 'not-her-password');
  await shown(toast(katherine, 'Invalid email or password'));
  await submitLogin(katherine, KATHERINE.email, KATHERINE.password);
  await shown(toast(katherine, 'Your account is disabled. Ask a super admin to enable it.'));
  expect(new URL(katherine.url()).pathname).toBe('/admin/login');

  await row.getByRole('button', { name: `Enable ${KATHERINE.name}` }).click();
  await shown(toast(owner, 'Admin enabled successfully'));
  await shown(row.getByText('Active', { exact: true }));
  // The guard remembered where her session ended, and signing in again takes her back there.
  await katherine.getByRole('button', { name: 'Sign In', exact: true }).click();
  await atPath(katherine, '/admin/change-password');
  await shown(katherine.getByText('Choose a new password for your account.'));
});

/*
 * Pictures of every admin screen at desktop and phone widths, for docs/screenshots. Opt-in, because
 * they are for people to look at, not a check: `SCREENSHOTS=1 npx jest --selectProjects e2e
 * --testPathPatterns screenshots` (after `npx tsc -b && npm run build -w web`).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  DESKTOP,
  MOBILE,
  ROOT,
  SUPER,
  api,
  atPath,
  newPage,
  shown,
  startProductAndBrowser,
  temporaryPasswordIn,
  waitForMail,
  type RunningProduct,
} from './support';

jest.setTimeout(300_000);

const OUT = path.join(ROOT, 'docs/screenshots');
const describeIfAsked = process.env.SCREENSHOTS === '1' ? describe : describe.skip;

// A believable team, so the admin table shows every role and status.
const TEAM = [
  { name: 'Grace Hopper', email: 'grace.hopper@example.edu', role: 'admin' },
  { name: 'Katherine Johnson', email: 'katherine.johnson@example.edu', role: 'super_admin' },
  { name: 'Alan Turing', email: 'alan.turing@example.edu', role: 'admin', disable: true },
  { name: 'Margaret Hamilton', email: 'margaret.hamilton@example.edu', role: 'admin' },
];
const PASSWORD = 'team-password';

describeIfAsked('screenshots for docs/screenshots', () => {
  let product: RunningProduct;
  let browser: Browser;
  let superToken: string;
  let graceTemporary: string;

  beforeAll(async () => {
    ({ product, browser } = await startProductAndBrowser({}, { own: true }));
    mkdirSync(OUT, { recursive: true });
    superToken = (await api<{ token: string }>(product.url, 'POST', '/api/auth/login', { body: SUPER })).body
      .token;
    for (const member of TEAM) {
      const created = await api<{ admin: { _id: string } }>(product.url, 'POST', '/api/admin/admins', {
        token: superToken,
        body: { name: member.name, email: member.email, password: PASSWORD, role: member.role },
      });
      if (member.disable) {
        await api(product.url, 'PATCH', `/api/admin/admins/${created.body.admin._id}/status`, {
          token: superToken,
          body: { status: 'disabled' },
        });
      }
    }
    // Two sign-ins, so "Last Login" has something to show next to "Never".
    await api(product.url, 'POST', '/api/auth/login', {
      body: { email: TEAM[3]!.email, password: PASSWORD },
    });
    const admins = await api<{ admins: { _id: string; email: string }[] }>(
      product.url,
      'GET',
      '/api/admin/admins',
      { token: superToken },
    );
    const grace = admins.body.admins.find((a) => a.email === TEAM[0]!.email)!;
    await api(product.url, 'POST', `/api/admin/admins/${grace._id}/reset-password`, { token: superToken });
    graceTemporary = temporaryPasswordIn(await waitForMail(product.url, TEAM[0]!.email));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  /*
   * The desktop shots show the window as a person sees it (a full-page capture would stretch the page
   * past the fixed sidebar); the phone shots of plain screens show the whole scrolled page, and those
   * with a dialog or the drawer open show the window, since that is all there is to see.
   */
  const shoot = (page: Page, name: string, width: 'desktop' | 'mobile', overlay = false) =>
    page.screenshot({
      path: path.join(OUT, `${name}-${width}.png`),
      fullPage: width === 'mobile' && !overlay,
      animations: 'disabled',
    });

  test.each([
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const)('when the screens are shown at %s width, then each is saved', async (width, viewport) => {
    const { context, page } = await newPage(browser, product.url, viewport);
    try {
      await page.goto('/admin/login');
      await shown(page.getByRole('heading', { name: 'Admin Portal' }));
      await shoot(page, 'login', width);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await shown(page.getByText('Password is required'));
      await shoot(page, 'login-validation', width);

      await page.goto('/no/such/page');
      await shown(page.getByRole('heading', { name: 'Page Not Found' }));
      await shoot(page, 'not-found', width);

      // Signed in by token: the welcome toast would otherwise sit on top of every picture.
      await page.evaluate((token) => localStorage.setItem('admin_token', token), superToken);
      await page.goto('/admin/dashboard');
      await shown(page.getByRole('heading', { name: 'Dashboard', level: 1 }));
      await shoot(page, 'dashboard', width);

      if (width === 'mobile') {
        await page.getByRole('button', { name: 'Open menu' }).click();
        await shown(page.getByRole('complementary', { name: 'Sidebar' }));
        await shoot(page, 'drawer', width, true);
        await page.getByRole('button', { name: 'Close menu' }).click();
      }

      await page.goto('/admin/admins');
      await shown(page.getByRole('row').filter({ hasText: TEAM[3]!.email }));
      await shoot(page, 'admin-management', width);

      await page.getByRole('button', { name: 'Add Admin' }).click();
      const create = page.getByRole('dialog', { name: 'Create Admin' });
      await shown(create);
      await shoot(page, 'create-admin', width, true);
      await create.getByRole('button', { name: 'Create Admin' }).click();
      await shown(create.getByText('Role is required'));
      await shoot(page, 'create-admin-validation', width, true);
      await create.getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('button', { name: `Edit ${TEAM[1]!.name}` }).click();
      await shown(page.getByRole('dialog', { name: 'Edit Admin' }));
      await shoot(page, 'edit-admin', width, true);
      await page.getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('button', { name: `Reset password for ${TEAM[3]!.name}` }).click();
      await shown(page.getByRole('dialog', { name: 'Reset Password' }));
      await shoot(page, 'reset-password', width, true);
      await page.getByRole('button', { name: 'Cancel' }).click();

      // The forced change after signing in with a mailed temporary password.
      await page.evaluate(() => localStorage.removeItem('admin_token'));
      await page.goto('/admin/login');
      await page.getByLabel('Email').fill(TEAM[0]!.email);
      await page.getByLabel('Password', { exact: true }).fill(graceTemporary);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await atPath(page, '/admin/change-password');
      await page.locator('.Toastify__toast').first().waitFor({ state: 'detached', timeout: 10_000 });
      await shoot(page, 'change-password', width);
    } finally {
      await context.close();
    }
  });

  test.each([
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const)('when the import preview is shown at %s width, then it is saved', async (width, viewport) => {
    const { context, page } = await newPage(browser, product.url, viewport);
    try {
      await page.goto('/admin/login');
      await page.evaluate((token) => localStorage.setItem('admin_token', token), superToken);
      await page.goto('/admin/assessments');
      await page.getByRole('button', { name: 'Import Questions' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import Questions' });
      await dialog
        .getByLabel('Question file')
        .setInputFiles(path.join(ROOT, 'docs/samples/moodle-questions.xml'));
      await dialog.getByRole('button', { name: 'Read File' }).click();
      await shown(dialog.getByRole('region', { name: 'What the file holds' }));
      await shoot(page, 'import-preview', width, true);
    } finally {
      await context.close();
    }
  });
});

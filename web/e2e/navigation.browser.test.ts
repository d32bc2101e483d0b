/*
 * Routing, the guard, the narrow-screen drawer and the student bundle, in Chromium against the product
 * as `make start` runs it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  MOBILE,
  ROOT,
  SUPER,
  atPath,
  expectAccessible,
  saveScreenshot,
  shown,
  signIn,
  productForFile,
  submitLogin,
} from './support';

jest.setTimeout(180_000);

const file = productForFile();
let page: Page;
let consoleErrors: string[];

beforeEach(async () => {
  ({ page, consoleErrors } = await file.open());
});

describe('public routes', () => {
  test('when a visitor opens /, then they are sent to the sign-in screen and / leaves no history entry', async () => {
    await page.goto('/');
    await atPath(page, '/admin/login');
    await shown(page.getByRole('heading', { name: 'Admin Portal' }));
    // The redirect replaced the entry: going back leaves the app instead of bouncing through '/'.
    await page.goBack();
    expect(page.url()).toBe('about:blank');
  });

  test('when a visitor opens an unknown path, then the 404 page offers Go Home and Go Back, and both work', async () => {
    await page.goto('/admin/login');
    await shown(page.getByRole('heading', { name: 'Admin Portal' }));
    await page.goto('/no/such/page');

    await shown(page.getByRole('heading', { name: 'Page Not Found' }));
    await shown(page.getByText('does not exist or has been moved'));
    await expectAccessible(page, '404 page');

    await page.getByRole('button', { name: 'Go Back' }).click();
    await atPath(page, '/admin/login');

    await page.goto('/still/nothing');
    await page.getByRole('link', { name: 'Go Home' }).click();
    await atPath(page, '/admin/login');
    expect(consoleErrors).toEqual([]);
  });
});

describe('a slow link', () => {
  test.each([
    ['/admin/login', 'Admin Portal'],
    ['/verify', 'Verify a certificate'],
  ])(
    'when %s opens and the scripts are slow to come, then a loading shell shows at once, and the screen replaces it',
    async (pathname, heading) => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/assets/*.js', async (route) => {
        await released;
        await route.continue();
      });
      await page.goto(pathname, { waitUntil: 'commit' });
      const shell = page.getByRole('status', { name: 'Loading' });
      await shown(shell);
      await expectAccessible(page, `loading shell of ${pathname}`);
      if (pathname === '/verify') await saveScreenshot(page, 'loading-shell', 'desktop');
      release();
      await shown(page.getByRole('heading', { level: 1, name: heading }));
      await shell.waitFor({ state: 'detached' });
      expect(consoleErrors).toEqual([]);
    },
  );

  test('when the network drops a screen’s code the first time (a phone changing networks), then it is fetched again and the screen shows, not the error screen', async () => {
    let dropped = 0;
    await page.route('**/assets/login-page-*.js', async (route) => {
      if (dropped === 0) {
        dropped += 1;
        await route.abort('internetdisconnected');
      } else await route.continue();
    });
    await page.goto('/admin/login');
    await shown(page.getByRole('heading', { name: 'Admin Portal' }));
    expect(dropped).toBe(1);
    expect(await page.getByText('Something went wrong').count()).toBe(0);
  });
});

describe('the guard', () => {
  test('when a signed-out visitor opens /admin/admins and signs in, then they land on /admin/admins', async () => {
    await page.goto('/admin/admins');
    await atPath(page, '/admin/login');
    await shown(page.getByRole('heading', { name: 'Admin Portal' }));

    await submitLogin(page, SUPER.email, SUPER.password);
    await atPath(page, '/admin/admins');
    await shown(page.getByRole('heading', { name: 'Admin Management', level: 1 }));
    await shown(page.getByRole('cell', { name: new RegExp(SUPER.email) }));
  });
});

describe('the drawer below 1024 px', () => {
  test('when the screen is 800 px wide, then the sidebar hides, the menu button opens it over an overlay, and a click on the overlay closes it', async () => {
    await page.setViewportSize({ width: 800, height: 800 });
    await signIn(page, SUPER.email, SUPER.password);
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    const overlay = page.getByTestId('drawer-overlay');
    const menu = page.getByRole('button', { name: 'Open menu' });

    await sidebar.waitFor({ state: 'hidden' });
    expect(await overlay.count()).toBe(0);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');

    await menu.click();
    await shown(sidebar);
    await shown(overlay);
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    const box = await sidebar.boundingBox();
    expect(box).toMatchObject({ x: 0 });
    await shown(sidebar.getByRole('link', { name: 'Admins' }));
    await expectAccessible(page, 'dashboard with the drawer open');

    // Click the part of the overlay that the drawer does not cover.
    await overlay.click({ position: { x: 700, y: 400 } });
    await sidebar.waitFor({ state: 'hidden' });
    expect(await overlay.count()).toBe(0);

    // Following a link from the drawer closes it too.
    await menu.click();
    await sidebar.getByRole('link', { name: 'Admins' }).click();
    await atPath(page, '/admin/admins');
    await sidebar.waitFor({ state: 'hidden' });
  });

  test('when the visitor asks for less motion, then the drawer and its overlay appear at once; otherwise they slide and fade in', async () => {
    await page.setViewportSize({ width: 800, height: 800 });
    await signIn(page, SUPER.email, SUPER.password);
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    const overlay = page.getByTestId('drawer-overlay');
    // Seconds the drawer takes to slide in and the overlay to fade in, as the browser applies the styles.
    const motion = async () => ({
      slide: await sidebar.evaluate((el) => parseFloat(getComputedStyle(el).transitionDuration)),
      fade: await overlay.evaluate((el) => parseFloat(getComputedStyle(el).animationDuration)),
    });

    await page.getByRole('button', { name: 'Open menu' }).click();
    await shown(overlay);
    const reduced = await motion();
    expect(reduced.slide).toBeLessThan(0.001);
    expect(reduced.fade).toBeLessThan(0.001);

    await page.getByRole('button', { name: 'Close menu' }).click();
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await shown(overlay);
    expect(await motion()).toEqual({ slide: 0.2, fade: 0.15 });
  });

  test('when the screen is 1280 px wide, then the sidebar is always there and there is no menu button', async () => {
    await signIn(page, SUPER.email, SUPER.password);
    await shown(page.getByRole('complementary', { name: 'Sidebar' }));
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
  });
});

describe('phone width', () => {
  test('when the screen is 360 px wide, then sign-in and the admin table (as cards) pass the accessibility scan', async () => {
    await page.setViewportSize(MOBILE);
    await page.goto('/admin/login');
    await shown(page.getByRole('heading', { name: 'Admin Portal' }));
    await expectAccessible(page, 'login at 360 px');

    await submitLogin(page, SUPER.email, SUPER.password);
    await atPath(page, '/admin/dashboard');
    await page.goto('/admin/admins');
    await shown(page.getByRole('cell', { name: new RegExp(SUPER.email) }));
    // No sideways scrolling: the table turned into cards that fit the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await expectAccessible(page, 'admin management at 360 px');

    // SPEC §3: the header shows the admin's name, on a phone too (shortened if it must be), for every reader.
    const header = page.getByRole('banner');
    expect(await header.getByText(SUPER.name).isVisible()).toBe(true);
    expect(await header.getByText(SUPER.name).getAttribute('aria-hidden')).toBeNull();
    // Icon-only row actions are touch targets: 44 px at least (WCAG 2.5.8's floor is 24 px).
    const actions = page
      .getByRole('cell', { name: new RegExp(SUPER.email) })
      .locator('xpath=..')
      .locator('.btn--icon');
    expect(await actions.count()).toBeGreaterThan(0);
    for (const box of await actions.evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect()))) {
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
    }
  });
});

describe('the accessibility scan', () => {
  test('when a screen gains a serious violation after a scan, then the next scan names it; a new document is scanned afresh', async () => {
    await page.goto('/admin/login');
    await shown(page.getByRole('heading', { name: 'Admin Portal' }));
    await expectAccessible(page, 'login');
    // The same document, changed in place as a screen changes: the scan reads the page as it is now.
    await page.evaluate(() => document.querySelector('main')?.append(document.createElement('button')));
    await expect(expectAccessible(page, 'login with an unnamed button')).rejects.toThrow(
      /\[critical\] button-name/,
    );
    // A new document (axe's script went with the old one) passes again.
    await page.reload();
    await shown(page.getByRole('heading', { name: 'Admin Portal' }));
    await expectAccessible(page, 'login reloaded');
  });
});

describe('the student pages', () => {
  interface ManifestChunk {
    file: string;
    src?: string;
  }

  test('when a student opens their invitation link, then the browser downloads no admin code', async () => {
    const manifest = JSON.parse(
      readFileSync(path.join(ROOT, 'web/dist/.vite/manifest.json'), 'utf8'),
    ) as Record<string, ManifestChunk>;
    const adminSource = /^src\/features\/(auth|admins|layout|dashboard|students|assessments|results)\//;
    // The admin entry (index.html's script) and every admin screen.
    const adminFiles = new Set(
      Object.entries(manifest)
        .filter(([key, chunk]) => key === 'index.html' || adminSource.test(chunk.src ?? key))
        .map(([, chunk]) => `/${chunk.file}`),
    );
    // The check below only means something if the admin screens are separate files at all.
    expect([...adminFiles].some((f) => f.includes('admin-management-page'))).toBe(true);
    expect([...adminFiles].some((f) => f.includes('admin-layout'))).toBe(true);

    // Only what the student page itself pulls in counts: an invalid invitation later sends the
    // visitor on to '/', and from there to the sign-in screen, which is admin code by design.
    const scripts: string[] = [];
    let onStudentPage = true;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && !new URL(frame.url()).pathname.startsWith('/assessment/')) {
        onStudentPage = false;
      }
    });
    page.on('response', (res) => {
      const { pathname } = new URL(res.url());
      if (onStudentPage && pathname.endsWith('.js')) scripts.push(pathname);
    });
    // The student pages are their own entry (student.html), built on their own.
    const studentEntry = page.waitForResponse((res) => /\/assets\/student-[^/]*\.js$/.test(res.url()));
    await page.goto('/assessment/some-token');
    await studentEntry;
    await page.waitForLoadState('networkidle');
    expect(scripts.some((s) => /\/assets\/student-[^/]*\.js$/.test(s))).toBe(true);
    expect(scripts.filter((s) => adminFiles.has(s))).toEqual([]);
    if (onStudentPage) await expectAccessible(page, 'student welcome page');
  });
});

/*
 * The waiting room's page in Chromium against the product as `make start` runs it (docs/waiting-room.md): the super
 * admin lowers the admission ceiling to one student a minute, three students press Start, and those past the first
 * see their place in line instead of a running clock, in English and in Arabic (right to left), at 1280 and 360 px,
 * scanned for accessibility and with nothing wider than the window. Then the ceiling goes back to automatic and the
 * waiting pages start their attempts by themselves. With SCREENSHOTS=1 it saves docs/screenshots/waiting-room-*.png.
 *
 * On the shared product: the ceiling is put back to automatic after the file, as it found it.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import ar from '../src/i18n/locales/ar';
import {
  DESKTOP,
  MOBILE,
  SCREENSHOTS,
  SCREENSHOT_DIR,
  api,
  expectAccessible,
  overflowing,
  productForFile,
  shown,
  toast,
} from './support';
import { inviteStudent, someone } from './steps';

jest.setTimeout(240_000);

let adminToken = '';

// Registered before the product's own hooks, so that it runs while the product still does.
afterAll(async () => {
  if (adminToken) await setCeiling(null);
});

const file = productForFile();

/** The admission ceiling, as the admin's Live screen sets it: a number a minute, or null for automatic. */
async function setCeiling(ceilingPerMinute: number | null): Promise<void> {
  const saved = await api<{ ceilingPerMinute: number | null }>(
    file.url,
    'PUT',
    '/api/admin/students/waiting-room',
    { token: adminToken, body: { ceilingPerMinute } },
  );
  expect(saved.status).toBe(200);
  expect(saved.body.ceilingPerMinute).toBe(ceilingPerMinute);
}

async function shoot(page: Page, name: string, fullPage: boolean): Promise<void> {
  if (!SCREENSHOTS) return;
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `waiting-room-${name}.png`),
    fullPage,
    animations: 'disabled',
  });
}

/** A new student, invited in `language`, on the welcome page with Start pressed. */
async function pressStart(label: string, viewport: typeof DESKTOP, language: 'en' | 'ar'): Promise<Page> {
  const student = { ...someone(label), language };
  const { link } = await inviteStudent(file.url, adminToken, student);
  const page = await file.page(viewport);
  await page.goto(link);
  const start = language === 'ar' ? ar['welcome.start'] : 'Start Assessment';
  await page.getByRole('button', { name: start }).click();
  return page;
}

/** The student's place as their page shows it: the number in 'You are number N in line' (in any language). */
async function placeOn(page: Page): Promise<number> {
  const text = (await page.locator('.waiting__place').textContent()) ?? '';
  return Number(/(\d[\d,]*)/.exec(text)?.[1]?.replace(/,/g, ''));
}

beforeAll(async () => {
  adminToken = await file.superToken();
}, 180_000);

test('when the ceiling is one a minute, then students past the first see their place without a clock, in English and Arabic, and start by themselves once it is raised', async () => {
  // Set here, not once for the file: a retry of the test (retry-once.ts) forms its line again.
  await setCeiling(1);
  // The first takes the minute's one admission (or waits too, when a student of another file took it just now).
  const first = await pressStart('Queue', DESKTOP, 'en');
  await shown(
    first
      .getByRole('heading', { name: 'You are in line to start' })
      .or(toast(first, 'Assessment started. Good luck!'))
      .or(first.getByRole('timer', { name: 'Time remaining' })),
  );

  const english = await pressStart('Queue', DESKTOP, 'en');
  const card = english.getByRole('region', { name: 'You are in line to start' });
  await shown(card);
  await shown(card.getByText(/^You are number \d+ in line$/));
  expect(await placeOn(english)).toBeGreaterThanOrEqual(1);
  await shown(
    card.getByText(
      'Your time has not started. Keep this page open: your assessment will start by itself when it is your turn.',
    ),
  );
  await shown(card.getByText(/^Estimated wait: (less than a minute|about \d+ minutes?)$/));
  // What a screen reader is told, politely: the place as of the last look at the line.
  expect(await card.locator('[aria-live="polite"]').textContent()).toMatch(/^You are number \d+ in line$/);
  expect(await english.getByRole('timer').count()).toBe(0);
  await expectAccessible(english, 'the waiting page (1280 px)');
  expect(await overflowing(english)).toEqual([]);
  await shoot(english, 'desktop', false);

  await english.setViewportSize(MOBILE);
  expect(await overflowing(english)).toEqual([]);
  await expectAccessible(english, 'the waiting page (360 px)');
  await shoot(english, 'mobile', true);

  const arabic = await pressStart('Queue', MOBILE, 'ar');
  const arabicCard = arabic.getByRole('region', { name: ar['waiting.title'] });
  await shown(arabicCard);
  await shown(arabicCard.getByText(/^ترتيبك في قائمة الانتظار: \d+$/));
  await shown(arabicCard.getByText(ar['waiting.notStarted']));
  expect(
    await arabic.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir })),
  ).toEqual({ lang: 'ar', dir: 'rtl' });
  expect(await placeOn(arabic)).toBeGreaterThan(await placeOn(english));
  expect(await overflowing(arabic)).toEqual([]);
  await expectAccessible(arabic, 'the Arabic waiting page (360 px)');
  await shoot(arabic, 'arabic', true);
  await arabic.setViewportSize(DESKTOP);
  expect(await overflowing(arabic)).toEqual([]);
  await expectAccessible(arabic, 'the Arabic waiting page (1280 px)');

  // Automatic again: each waiting page's next poll finds its ticket served and starts the attempt by itself. Its
  // countdown is what shows it (the start's toast lasts seconds: on a loaded machine the minute's one admission may
  // have started a page, and its toast come and gone, while the Arabic page was being checked).
  await setCeiling(null);
  await shown(english.getByRole('timer', { name: 'Time remaining' }), 60_000);
  await shown(arabic.getByRole('timer', { name: ar['timer.label'] }), 60_000);
});

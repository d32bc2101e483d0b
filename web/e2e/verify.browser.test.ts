/*
 * The public certificate verification page in a real browser against the product as `make start` runs it: an
 * unknown code answered by the report service, and a valid certificate (its answer stood in for in the browser,
 * since issuing one needs a scored pass), each scanned with axe at desktop and phone width.
 */
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, expectAccessible, shown, productForFile } from './support';

jest.setTimeout(180_000);

const file = productForFile();

/** Nothing wider than the viewport: no sideways scrolling on a phone. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const [scroll, width] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    window.innerWidth,
  ]);
  expect(scroll).toBeLessThanOrEqual(width);
}

test.each([
  ['desktop', DESKTOP],
  ['phone', MOBILE],
] as const)(
  'when a code matches no certificate (%s), then the page says so and passes axe',
  async (_, viewport) => {
    const page = await file.page(viewport);
    await page.goto('/verify/RDY-0000-0000');
    await shown(page.getByRole('heading', { level: 1, name: 'No certificate has this code' }));
    await expectAccessible(page, `unknown certificate code (${viewport.width} px)`);
    await expectNoSidewaysScroll(page);
  },
);

test.each([
  ['desktop', DESKTOP],
  ['phone', MOBILE],
] as const)(
  'when a code matches a certificate (%s), then the page says Valid certificate with the name and date',
  async (_, viewport) => {
    const page = await file.page(viewport);
    await page.route('**/api/certificates/RDY-7K3F-92QX', (route) =>
      route.fulfill({
        json: {
          valid: true,
          name: 'Maria Gaetana Agnesi-Longname-With-Many-Parts',
          assessmentTitle: 'Distance Learning Readiness',
          percentage: 92,
          issuedAt: '2026-11-20T10:30:00.000Z',
        },
      }),
    );
    await page.goto('/verify/RDY-7K3F-92QX');
    await shown(page.getByRole('heading', { level: 1, name: 'Valid certificate' }));
    await shown(page.getByText('Maria Gaetana Agnesi-Longname-With-Many-Parts'));
    await shown(page.getByText('Nov 20, 2026'));
    await expectAccessible(page, `valid certificate (${viewport.width} px)`);
    await expectNoSidewaysScroll(page);
  },
);

test.each([
  ['/verify', 'Verify a certificate'],
  ['/verify/', 'Verify a certificate'],
  ['/verify/a/b', 'No certificate has this code'],
] as const)(
  'when %s is opened, then it is loaded once and shows a code field (%s), which opens the code typed',
  async (path, heading) => {
    const page = await file.page(DESKTOP);
    let documents = 0;
    page.on('domcontentloaded', () => documents++);
    await page.goto(path);
    await shown(page.getByRole('heading', { level: 1, name: heading }));
    // A page that reloads itself navigates again within a few hundred milliseconds.
    await page.waitForTimeout(1_500);
    expect(documents).toBe(1);
    await expectAccessible(page, `verify without a code: ${path}`);
    await page.getByLabel('Verification code').fill('RDY-0000-0000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === '/verify/RDY-0000-0000');
    await shown(page.getByRole('heading', { level: 1, name: 'No certificate has this code' }));
  },
);

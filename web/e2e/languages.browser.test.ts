/*
 * The student's journey in two languages besides English, in Chromium against the product as `make start` runs it
 * (issue 27): an admin invites a student in Arabic by the form and one in Spanish by CSV; each gets the invitation
 * mail in their language, takes the seeded assessment in it (Arabic laid out right to left), passes, and receives
 * the certificate in it, whose text pdftotext reads back. The Arabic student switches to French in the middle and
 * back, and keeps every answer. Every student screen gets an accessibility scan in its language.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SEED_TRANSLATIONS } from '../../services/assessment/src/domain/seed-translations';
import type { Catalogue } from '../src/i18n/locales/en';
import ar from '../src/i18n/locales/ar';
import es from '../src/i18n/locales/es';
import fr from '../src/i18n/locales/fr';
import {
  DESKTOP,
  MOBILE,
  SUPER,
  api,
  atPath,
  expectAccessible,
  newPage,
  shown,
  signIn,
  startProductAndBrowser,
  toast,
  waitForMail,
  type CaughtMail,
  type RunningProduct,
} from './support';

jest.setTimeout(300_000);

let product: RunningProduct;
let browser: Browser;
let admin: Page;
const contexts: BrowserContext[] = [];

const ARABIC = /[\u0600-\u06FF]/;
// Each run of a test (a retry included) invites its own student.
const LAYLA = { name: 'ليلى حسن', email: () => `layla-${Date.now()}@example.edu` };
const LUCIA = { name: 'Lucía Peña', email: () => `lucia-${Date.now()}@example.edu` };

/** The seeded assessment's right answers, section by section (services/assessment/src/domain/seed.ts). */
const RIGHT: Record<string, string>[] = [
  { q1: 'yes', q2: 'yes', q3: 'q3o2', q4: 'no' },
  { q5: 'q5o2', q6: 'yes', q7: 'q7o2' },
  { q9: 'yes', q10: 'q10o2', q12: 'yes', q13: 'q13o1' },
  { q14: 'no', q15: 'q15o2', q16: 'yes' },
];
const ESSAY = {
  name: 'why-online.txt',
  mimeType: 'text/plain',
  buffer: Buffer.from('I work during the day.\n'),
};

beforeAll(async () => {
  ({ product, browser } = await startProductAndBrowser());
  admin = await open(DESKTOP);
  await signIn(admin, SUPER.email, SUPER.password);
}, 180_000);

afterAll(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
  await browser?.close();
  await product?.stop();
});

async function open(viewport: typeof DESKTOP): Promise<Page> {
  const { context, page } = await newPage(browser, product.url, viewport);
  contexts.push(context);
  return page;
}

/** The assessment link of an invitation mail, whatever its language. */
function linkIn(mail: CaughtMail): string {
  const found = /https?:\/\/[^\s"<>]+\/assessment\/[A-Za-z0-9_-]{20,}/.exec(mail.text)?.[0];
  if (!found) throw new Error(`The mail carries no assessment link:\n${mail.text}`);
  return new URL(found).pathname;
}

async function documentLanguage(page: Page): Promise<{ lang: string; dir: string }> {
  return page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));
}

/** Answers one section of the seeded assessment rightly (and the required file in section 2). */
async function answerSection(page: Page, section: number): Promise<void> {
  for (const [id, value] of Object.entries(RIGHT[section]!)) {
    await page.locator(`[data-question-id="${id}"] input[value="${value}"]`).check();
  }
  if (section === 1) {
    const file = page.locator('[data-question-id="q8"]');
    await file.locator('input[type="file"]').setInputFiles(ESSAY);
    await shown(file.getByText(ESSAY.name));
  }
}

/** The certificate PDF of a student's passed result, as text. */
async function certificateText(token: string): Promise<string> {
  let url: string | null = null;
  for (let i = 0; i < 240 && !url; i++) {
    const seen = await api<{ result?: { certificateUrl?: string | null } }>(
      product.url,
      'GET',
      `/api/student/${token}/assessment`,
    );
    url = seen.body.result?.certificateUrl ?? null;
    if (!url) await new Promise((r) => setTimeout(r, 500));
  }
  if (!url) throw new Error('The certificate was never issued');
  const pdf = Buffer.from(await (await fetch(new URL(url, product.url))).arrayBuffer());
  const dir = mkdtempSync(path.join(tmpdir(), 'certificate-'));
  try {
    writeFileSync(path.join(dir, 'c.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', path.join(dir, 'c.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Takes the seeded assessment from the welcome page to the result, in the page's language. */
async function takeAndPass(
  page: Page,
  t: Catalogue,
  link: string,
  who: string,
  midway?: () => Promise<void>,
) {
  await page.getByRole('button', { name: t['welcome.start'] }).click();
  for (let section = 0; section < RIGHT.length; section++) {
    await answerSection(page, section);
    if (section === 0 && midway) await midway();
    if (section < RIGHT.length - 1) await page.getByRole('button', { name: t['footer.next'] }).click();
  }
  await page.getByRole('button', { name: t['footer.submit'] }).click();
  // The optional planner upload is left: the summary asks first.
  const summary = page.getByRole('dialog', { name: t['summary.title'] });
  await expectAccessible(page, `submit summary (${who})`);
  await summary.getByRole('button', { name: t['summary.confirm'] }).click();
  await atPath(page, `${link}/complete`);
  await shown(page.getByRole('heading', { level: 1, name: t['complete.congratulations'] }), 60_000);
  await expectAccessible(page, `completion page (${who})`);
}

test('when a student invited in Arabic takes the seeded assessment, then the mail, the pages and the certificate are Arabic and right to left, and a switch to French mid-way keeps every answer', async () => {
  await admin.goto('/admin/students');
  await admin.getByRole('button', { name: 'Invite Student' }).click();
  const invite = admin.getByRole('dialog', { name: 'Invite Student' });
  await invite.getByLabel('Name').fill(LAYLA.name);
  const email = LAYLA.email();
  await invite.getByLabel('Email').fill(email);
  await invite.getByLabel('Language of the mails, the test and the certificate').selectOption('ar');
  await invite.getByRole('button', { name: 'Send Invitation' }).click();
  await shown(toast(admin, `Invitation sent to ${LAYLA.name}`));

  const mail = await waitForMail(product.url, email);
  expect(mail.subject).toMatch(ARABIC);
  expect(mail.html).toMatch(/<html[^>]*lang="ar"[^>]*dir="rtl"|<html[^>]*dir="rtl"[^>]*lang="ar"/);
  const link = linkIn(mail);
  const token = link.split('/').pop()!;

  for (const viewport of [MOBILE, DESKTOP]) {
    const page = await open(viewport);
    await page.goto(link);
    await shown(page.getByRole('button', { name: ar['welcome.start'] }));
    expect(await documentLanguage(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    await shown(page.getByText(LAYLA.name));
    // The seeded version's own Arabic: its title on the welcome page.
    await shown(page.getByText(SEED_TRANSLATIONS.ar!.title!, { exact: true }));
    await expectAccessible(page, `Arabic welcome page (${viewport.width} px)`);
    if (viewport === DESKTOP) {
      await takeAndPass(page, ar, link, 'Arabic', async () => {
        const chosen = { q1: 'yes', q3: 'q3o2', q4: 'no' };
        await page.getByLabel(ar['language.label']).selectOption('fr');
        await shown(page.getByRole('button', { name: fr['footer.next'] }));
        expect(await documentLanguage(page)).toEqual({ lang: 'fr', dir: 'ltr' });
        // The content switches with the page: the first question in French.
        await shown(page.getByText(SEED_TRANSLATIONS.fr!.questions!.q1!.question!, { exact: true }));
        for (const [id, value] of Object.entries(chosen)) {
          expect(await page.locator(`[data-question-id="${id}"] input[value="${value}"]`).isChecked()).toBe(
            true,
          );
        }
        await expectAccessible(page, 'test page switched to French');
        // The switch is kept with the attempt: the server answers it for a reload or another device.
        for (let i = 0; i < 40; i++) {
          const seen = await api<{ language: string }>(
            product.url,
            'GET',
            `/api/student/${token}/assessment`,
          );
          if (seen.body.language === 'fr') break;
          if (i === 39) throw new Error(`The switch never reached the server: ${seen.body.language}`);
          await new Promise((r) => setTimeout(r, 250));
        }
        await page.getByLabel(fr['language.label']).selectOption('ar');
        await shown(page.getByRole('button', { name: ar['footer.next'] }));
        expect(await documentLanguage(page)).toEqual({ lang: 'ar', dir: 'rtl' });
        await expectAccessible(page, 'Arabic test page');
        // Right to left: the next-section button stands left of the previous one's place, the timer on the left.
        const next = await page.getByRole('button', { name: ar['footer.next'] }).boundingBox();
        expect(next!.x).toBeLessThan(DESKTOP.width / 2);
      });
    }
  }

  const certificate = await waitForMail(
    product.url,
    email,
    (m) => m.attachments.some((a) => a.endsWith('.pdf')),
    120_000,
  );
  expect(certificate.subject).toMatch(ARABIC);
  const text = await certificateText(token);
  expect(text).toContain('شهادة إنجاز');
  expect(text).toContain(LAYLA.name);
});

test('when a student invited in Spanish by CSV takes the seeded assessment, then the mail, the pages and the certificate are Spanish', async () => {
  await admin.goto('/admin/students');
  const email = LUCIA.email();
  await admin.getByRole('button', { name: 'Import CSV' }).click();
  const importer = admin.getByRole('dialog', { name: 'Import Students' });
  await importer.getByLabel('CSV file').setInputFiles({
    name: 'cohort.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`name,email,language\n${LUCIA.name},${email},es\n`),
  });
  await importer.getByRole('button', { name: 'Check File' }).click();
  await importer.getByRole('button', { name: 'Invite 1 student' }).click();
  await shown(toast(admin, '1 student invited'));

  const mail = await waitForMail(product.url, email);
  expect(mail.html).toMatch(/<html[^>]*lang="es"/);
  expect(mail.text).toContain(`${LUCIA.name}`);
  expect(mail.text).not.toContain('Open your assessment');
  const link = linkIn(mail);
  const token = link.split('/').pop()!;

  const page = await open(DESKTOP);
  await page.goto(link);
  await shown(page.getByRole('button', { name: es['welcome.start'] }));
  expect(await documentLanguage(page)).toEqual({ lang: 'es', dir: 'ltr' });
  await expectAccessible(page, 'Spanish welcome page');
  await shown(page.getByText(SEED_TRANSLATIONS.es!.title!, { exact: true }));
  await takeAndPass(page, es, link, 'Spanish');

  const certificate = await waitForMail(
    product.url,
    email,
    (m) => m.attachments.some((a) => a.endsWith('.pdf')),
    120_000,
  );
  expect(certificate.html).toMatch(/<html[^>]*lang="es"/);
  const text = await certificateText(token);
  expect(text).toContain('Certificado de logro');
  expect(text).toContain(LUCIA.name);
});

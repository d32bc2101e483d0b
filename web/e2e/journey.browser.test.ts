/*
 * The whole journey of an institution in Chromium against the product as `make start` runs it, through the
 * screens wherever a person would use them: a super admin signs in and rewrites the assessment (one question of
 * each type and a question file to download), invites one student by the form and one by CSV; each student opens
 * the link from their invitation mail; A passes with a file upload, a reload in the middle and an answer changed
 * after it; B fails, retakes and passes; the certificate mails arrive and their codes verify on the public page;
 * the dashboard, the results, a result's detail and the item analysis show the figures worked out by hand below;
 * the PDF report downloads; and deleting A leaves nothing of them behind. Every screen on the way gets an
 * accessibility scan at 1280 and 360 px. With SCREENSHOTS=1 each is also saved as
 * docs/screenshots/journey-<screen>-<desktop|mobile>.png.
 *
 * The tests run in order and share one product, one admin tab and the students' state.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  DESKTOP,
  MOBILE,
  SCREENSHOTS,
  SUPER,
  api,
  atPath,
  eventually,
  expectAccessible,
  invitationLinkIn,
  isolated,
  newPage,
  resultShown,
  saveScreenshot,
  saveAssessmentChanges,
  shown,
  startProductAndBrowser,
  submitAssessment,
  submitLogin,
  toast,
  waitForMail,
  type CaughtMail,
  type RunningProduct,
} from './support';

jest.setTimeout(240_000);

/*
 * The assessment the admin writes: 4 points, 70 % to pass (3 points).
 *   Q1 yes/no, 1 point, right answer Yes           (section 1, Technology)
 *   Q2 multiple choice, 2 points, right: Every day (section 1, Technology)
 *   Q3 file upload, 1 point, right when a file is uploaded (section 2, Study Habits), with a template to download
 * The answers given and what they earn:
 *   A       Q1 No, then Yes after the reload; Q2 Every day; file  → 4/4 = 100 % passed (Excellent)
 *   B, #1   Q1 No; Q2 Once a week; file                          → 1/4 =  25 % failed
 *   B, #2   Q1 No; Q2 Every day; file                            → 3/4 =  75 % passed (Satisfactory)
 * Item analysis over the three results: Q1 1 of 3 right (33 %), Q2 2 of 3 (67 %), Q3 3 of 3 (100 %); section
 * means Technology (100 + 0 + 67) / 3 = 56 %, Study Habits 100 %; one result each in 20–29, 70–79 and 90–100.
 */
const TITLE = 'Online Learning Readiness Check';
const Q1 = 'Do you have a reliable internet connection at home?';
const Q2 = 'How often can you study online?';
const Q3 = 'Upload your weekly study plan';
const TEMPLATE = {
  name: 'study-plan-template.pdf',
  mimeType: 'application/pdf',
  buffer: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n% Weekly study plan template\ntrailer <<>>\n%%EOF\n'),
};
const planOf = (who: string) => ({
  name: `${who.toLowerCase()}-study-plan.txt`,
  mimeType: 'text/plain',
  buffer: Buffer.from(`Monday 18:00-20:00 reading; Wednesday 18:00-20:00 exercises (${who})\n`),
});

const A = { name: 'Amina Okafor', email: 'amina.okafor@example.edu' };
const B = { name: 'Bruno Lindqvist', email: 'bruno.lindqvist@example.edu', phone: '+46 70 123 45 67' };

let product: RunningProduct;
let browser: Browser;
let admin: Page;
let adminToken: string;
const contexts: BrowserContext[] = [];

/** What the journey learns on the way and checks later. */
const seen: {
  /** The links of the invitation mails, on the product's public origin, as the students follow them. */
  linkA?: URL;
  linkB?: URL;
  codeA?: string;
  codeB?: string;
  certificateSizeA?: number;
  /** The code A's completion page showed, and that page, kept open. */
  completionCodeA?: string;
  pageA?: Page;
} = {};

beforeAll(async () => {
  ({ product, browser } = await startProductAndBrowser({}, { own: true }));
  const { context, page } = await newPage(browser, product.url);
  contexts.push(context);
  admin = page;
}, 180_000);

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await browser?.close();
  await product?.stop();
});

/**
 * Every screen on the way: scanned with axe at 1280 px and again at 360 px, and saved as a picture at both
 * widths when SCREENSHOTS=1; the page is left at the width it had.
 */
async function screen(
  page: Page,
  name: string,
  options: { overlay?: boolean; scrolled?: boolean } = {},
): Promise<void> {
  const before = page.viewportSize() ?? DESKTOP;
  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const) {
    if (page.viewportSize()?.width !== viewport.width) await page.setViewportSize(viewport);
    await expectAccessible(page, `${name} at ${viewport.width} px`);
    if (SCREENSHOTS) {
      // The pictures are of the screen, not of a toast that happens to pass over it.
      await page.locator('.Toastify__toast').first().waitFor({ state: 'detached', timeout: 10_000 });
      // From the top (where the sticky headers belong), unless the picture is of a part further down.
      if (!options.overlay && !options.scrolled) await page.evaluate(() => window.scrollTo(0, 0));
      await saveScreenshot(page, `journey-${name}`, width, options.overlay);
    }
  }
  if (page.viewportSize()?.width !== before.width) await page.setViewportSize(before);
}

async function openAsStudent(link: URL): Promise<Page> {
  const { context, page } = await newPage(browser, product.url);
  contexts.push(context);
  await page.goto(link.href);
  return page;
}

/** A question card of the test screen, by (part of) its text. */
const question = (page: Page, text: string) => page.getByRole('group', { name: text });
const saved = (page: Page) => page.locator('.test-header__save', { hasText: 'Saved' });
/** The figures of the stat cards named, read together so a failure shows them all. */
async function expectStats(page: Page, expected: Record<string, string>): Promise<void> {
  const read: Record<string, string | null> = {};
  for (const label of Object.keys(expected)) {
    read[label] = await page.getByRole('region', { name: label }).locator('.stat-card__value').textContent();
  }
  expect(read).toEqual(expected);
}
const editorQuestion = (page: Page, n: number) =>
  page.getByRole('group', { name: `Question ${n}`, exact: true });
const sidebar = (page: Page, entry: string) =>
  page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: entry, exact: true });

/** The row of a results table for one student's attempt, told apart by its percentage. */
const resultRow = (table: Locator, who: { email: string }, percent: string) =>
  table.getByRole('row').filter({ hasText: who.email }).filter({ hasText: percent });

/** Reads a downloaded file whole. */
async function contentOf(download: { path(): Promise<string> }): Promise<Buffer> {
  return readFileSync(await download.path());
}

/** Starts an attempt from the welcome page and waits for the first section. */
async function start(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Start Assessment' }).click();
  await shown(toast(page, 'Assessment started. Good luck!'));
  await shown(page.getByRole('heading', { level: 2, name: 'Technology' }));
}

/** Answers section 1, goes on, uploads the plan in section 2 and waits until it is held. */
async function answerAndUpload(page: Page, who: string, q1: 'Yes' | 'No', q2: string): Promise<void> {
  await question(page, Q1).getByText(q1, { exact: true }).click();
  await question(page, Q2).getByText(q2, { exact: true }).click();
  await page.getByRole('button', { name: 'Next Section' }).click();
  await shown(page.getByRole('heading', { level: 2, name: 'Study Habits' }));
  const plan = planOf(who);
  await question(page, Q3)
    .getByLabel(/Choose a file/)
    .setInputFiles(plan);
  await shown(question(page, Q3).getByText(plan.name));
}

async function submit(page: Page, link: string): Promise<void> {
  await submitAssessment(page);
  await shown(toast(page, 'Assessment submitted successfully!'));
  await atPath(page, `${link}/complete`);
}

const certificateMail = (to: string) =>
  waitForMail(product.url, to, (m) => m.subject.startsWith('Congratulations! Your certificate'), 120_000);

/** The verification code and the page a certificate mail points to. */
function verificationIn(mail: CaughtMail): { code: string; url: URL } {
  const found = /genuine at (\S+) \(verification code ([A-Z0-9-]+)\)/.exec(mail.text);
  if (!found) throw new Error(`The mail carries no verification code:\n${mail.text}`);
  return { url: new URL(found[1]!), code: found[2]! };
}

async function studentId(email: string): Promise<string> {
  const found = await api<{ students: { _id: string; email: string }[] }>(
    product.url,
    'GET',
    `/api/admin/students?search=${encodeURIComponent(email)}`,
    { token: adminToken },
  );
  const student = found.body.students.find((s) => s.email === email);
  if (!student) throw new Error(`No student ${email}`);
  return student._id;
}

test('when a super admin signs in and rewrites the assessment with a question of each type and a question file, then the saved version is Current and shows them', async () => {
  await admin.goto('/admin/login');
  await shown(admin.getByRole('heading', { name: 'Admin Portal' }));
  await screen(admin, 'login');
  await submitLogin(admin, SUPER.email, SUPER.password);
  await atPath(admin, '/admin/dashboard');
  await shown(toast(admin, `Welcome back, ${SUPER.name}!`));
  await shown(admin.getByText('No results yet'));
  adminToken = (await admin.evaluate(() => localStorage.getItem('admin_token')))!;
  expect(adminToken).toBeTruthy();

  await sidebar(admin, 'Assessments').click();
  await atPath(admin, '/admin/assessments');
  await admin.getByRole('button', { name: 'Edit Assessment' }).click();
  await shown(admin.getByRole('form', { name: 'Edit assessment' }));

  // Out with the sample's questions and its last two sections.
  // Each removal asks first; sections are emptied first, so removing them only asks to confirm.
  const removeFirst = admin.getByRole('button', { name: 'Remove Question 1', exact: true });
  const confirmRemoval = admin.getByRole('dialog', { name: 'Remove Question 1?' }).getByRole('button', {
    name: 'Remove Question',
  });
  while ((await removeFirst.count()) > 0) {
    await removeFirst.click();
    await confirmRemoval.click();
  }
  await shown(admin.getByText('No questions yet'));
  for (const n of [4, 3]) {
    await admin.getByRole('button', { name: `Remove Section ${n}` }).click();
    await admin
      .getByRole('dialog', { name: `Remove Section ${n}?` })
      .getByRole('button', { name: 'Remove Section' })
      .click();
  }

  await admin.getByLabel('Title', { exact: true }).fill(TITLE);
  await admin
    .getByLabel('Description', { exact: true })
    .fill('A short check of how ready you are to learn online.');
  await admin.getByLabel('Time limit (minutes)').fill('20');
  await admin.getByLabel('Passing score (%)').fill('70');
  await admin.getByLabel('Section 1 title').fill('Technology');
  await admin.getByLabel('Section 1 description').fill('Your computer and connection.');
  await admin.getByLabel('Section 2 title').fill('Study Habits');
  await admin.getByLabel('Section 2 description').fill('How you plan your week.');

  for (let i = 0; i < 3; i++) await admin.getByRole('button', { name: 'Add Question' }).click();

  const yesNo = editorQuestion(admin, 1);
  await yesNo.getByLabel('Question 1 text').fill(Q1);
  await yesNo.getByLabel('Correct answer').selectOption('yes');
  await yesNo.getByLabel('Points').fill('1');

  const choice = editorQuestion(admin, 2);
  await choice.getByLabel('Question 2 text').fill(Q2);
  await choice.getByLabel('Type').selectOption('multiple_choice');
  await choice.getByRole('button', { name: 'Add Option' }).click();
  const options = choice.getByRole('textbox', { name: /^Option \d+$/ });
  await options.nth(0).fill('Once a week');
  await options.nth(1).fill('Every day');
  await options.nth(2).fill('Once a month');
  await choice.getByLabel('Correct answer').selectOption({ label: 'Every day' });
  await choice.getByLabel('Points').fill('2');

  const upload = editorQuestion(admin, 3);
  await upload.getByLabel('Question 3 text').fill(Q3);
  await upload.getByLabel('Type').selectOption('file_upload');
  await upload.getByLabel('Section', { exact: true }).selectOption('2');
  await upload.getByLabel('File instructions').fill('Fill in the template and upload it.');
  await upload.getByLabel('Attach a downloadable file').check();
  await upload.getByLabel('Downloadable file for Question 3').setInputFiles(TEMPLATE);
  await shown(upload.getByText(TEMPLATE.name));
  // The questions, with their card's title clear of the sticky page header.
  await yesNo.evaluate((el) => {
    el.scrollIntoView({ block: 'start' });
    window.scrollBy(0, -140);
  });
  await screen(admin, 'assessment-edit', { scrolled: true });

  await admin.getByLabel('Change notes (optional)').fill('Three questions for the pilot cohort');
  // The seeded questions are translated: rewriting their English leaves those translations to review, and the
  // editor asks before saving (the pilot goes out in English first).
  await saveAssessmentChanges(admin);
  await shown(admin.getByRole('heading', { name: TITLE }));
  for (const text of [Q1, Q2, Q3]) await shown(admin.getByText(text));
  const history = admin.getByRole('region', { name: 'Version History' });
  await shown(
    history
      .getByRole('listitem')
      .filter({ has: admin.getByText('Version 2', { exact: true }) })
      .getByText('Current', { exact: true }),
  );
  expect(await admin.getByRole('textbox').count()).toBe(0);
  await admin.evaluate(() => window.scrollTo(0, 0));
  await screen(admin, 'assessment-saved');
});

test('when one student is invited by the form and one by CSV, then both are listed as Invited and each gets a mail with their link', async () => {
  await sidebar(admin, 'Students').click();
  await atPath(admin, '/admin/students');
  await shown(admin.getByText('No students found'));

  await admin.getByRole('button', { name: 'Invite Student' }).click();
  const invite = admin.getByRole('dialog', { name: 'Invite Student' });
  await invite.getByLabel('Name').fill(A.name);
  await invite.getByLabel('Email').fill(A.email);
  await screen(admin, 'students-invite', { overlay: true });
  await invite.getByRole('button', { name: 'Send Invitation' }).click();
  await shown(toast(admin, `Invitation sent to ${A.name}`));
  await invite.waitFor({ state: 'hidden' });

  await admin.getByRole('button', { name: 'Import CSV' }).click();
  const importer = admin.getByRole('dialog', { name: 'Import Students' });
  await importer.getByLabel('CSV file').setInputFiles({
    name: 'pilot-cohort.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`name,email,phoneNumber\n${B.name},${B.email},${B.phone}\n`),
  });
  await importer.getByRole('button', { name: 'Check File' }).click();
  await shown(importer.getByRole('button', { name: 'Invite 1 student' }));
  await screen(admin, 'students-import', { overlay: true });
  await importer.getByRole('button', { name: 'Invite 1 student' }).click();
  await shown(toast(admin, '1 student invited'));
  await importer.waitFor({ state: 'hidden' });

  const table = admin.getByRole('table', { name: 'Students' });
  for (const who of [A, B]) {
    await shown(table.getByRole('row').filter({ hasText: who.email }).getByText('Invited', { exact: true }));
  }
  await screen(admin, 'students-list');

  const [mailA, mailB] = await Promise.all([
    waitForMail(product.url, A.email, (m) => /invited/i.test(m.subject)),
    waitForMail(product.url, B.email, (m) => /invited/i.test(m.subject)),
  ]);
  seen.linkA = invitationLinkIn(mailA);
  seen.linkB = invitationLinkIn(mailB);
  expect(mailA.text).toContain(`Hello ${isolated(A.name)},`);
  expect(mailB.text).toContain(`Hello ${isolated(B.name)},`);
  expect(seen.linkA.pathname).toMatch(/^\/assessment\/[A-Za-z0-9_-]{20,}$/);
  expect(seen.linkB.pathname).not.toBe(seen.linkA.pathname);
});

test('when student A downloads the question file, uploads a plan, reloads and changes an answer, then they pass with 100%', async () => {
  const page = await openAsStudent(seen.linkA!);
  const link = seen.linkA!.pathname;
  await shown(page.getByRole('heading', { level: 1, name: 'Distance Education Readiness Assessment' }));
  await shown(page.getByText(A.name));
  await shown(page.getByText(TITLE));
  await shown(page.getByText('3 questions across 2 sections'));
  await screen(page, 'student-welcome');

  await start(page);
  expect(await page.getByRole('timer', { name: 'Time remaining' }).textContent()).toMatch(
    /^(20:00|19:\d\d)$/,
  );
  await screen(page, 'student-test');
  await answerAndUpload(page, 'A', 'No', 'Every day');
  // The template the admin attached downloads under its name, unchanged.
  const [template] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: `Download ${TEMPLATE.name}` }).click(),
  ]);
  expect(template.suggestedFilename()).toBe(TEMPLATE.name);
  expect((await contentOf(template)).equals(TEMPLATE.buffer)).toBe(true);
  await shown(page.getByText('100% complete'));
  await shown(saved(page));
  await screen(page, 'student-test-upload');

  // A reload in the middle: the attempt goes on with the answers and the file, without the welcome page.
  await page.reload();
  await shown(page.getByRole('timer', { name: 'Time remaining' }));
  expect(await page.getByRole('button', { name: 'Start Assessment' }).count()).toBe(0);
  await page.getByRole('button', { name: 'Section 1: Technology' }).click();
  await shown(page.getByRole('heading', { level: 2, name: 'Technology' }));
  expect(await question(page, Q1).getByLabel('No').isChecked()).toBe(true);
  expect(await question(page, Q2).getByLabel('Every day').isChecked()).toBe(true);
  // The answer changed after the reload is the one scored.
  await question(page, Q1).getByText('Yes', { exact: true }).click();
  expect(await question(page, Q1).getByLabel('Yes').isChecked()).toBe(true);
  await page.getByRole('button', { name: 'Section 2: Study Habits' }).click();
  await shown(question(page, Q3).getByText(planOf('A').name));
  await submit(page, link);

  await resultShown(page, 'Congratulations!');
  await shown(page.getByText('100%', { exact: true }));
  await shown(page.getByText('4 / 4 points'));
  await shown(page.locator('.result__facts dd').getByText('Attempt #1', { exact: true }));
  seen.completionCodeA = (await page.locator('.result__code').textContent()) ?? undefined;
  expect(seen.completionCodeA).toMatch(/^RDY-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
  await screen(page, 'student-complete-passed');
  seen.pageA = page;
});

test('when student B fails, then they retake from the welcome page and pass on the second attempt', async () => {
  const page = await openAsStudent(seen.linkB!);
  const link = seen.linkB!.pathname;
  await shown(page.getByText(B.name));
  await start(page);
  await answerAndUpload(page, 'B', 'No', 'Once a week');
  await submit(page, link);
  await resultShown(page, 'Assessment Complete');
  await shown(page.getByText('You did not meet the passing requirements this time'));
  await shown(page.getByText('25%', { exact: true }));
  await shown(page.getByText('1 / 4 points'));
  await screen(page, 'student-complete-failed');

  await page.getByRole('link', { name: 'Retake Assessment' }).click();
  await atPath(page, link);
  const previous = page.getByRole('region', { name: 'Previous Attempt' });
  await shown(previous.getByText('25%'));
  await shown(previous.getByText('Failed'));
  await shown(previous.getByText('You can retake this assessment to improve your score.'));
  await screen(page, 'student-welcome-retake');

  await start(page);
  // A new attempt starts with nothing answered.
  expect(await question(page, Q1).getByLabel('No').isChecked()).toBe(false);
  await answerAndUpload(page, 'B', 'No', 'Every day');
  await submit(page, link);
  await resultShown(page, 'Congratulations!');
  await shown(page.getByText('75%', { exact: true }));
  await shown(page.getByText('3 / 4 points'));
  await shown(page.locator('.result__facts dd').getByText('Attempt #2', { exact: true }));
});

test('when the certificates are mailed, then each carries the PDF and its code verifies on the public page', async () => {
  const [mailA, mailB] = await Promise.all([certificateMail(A.email), certificateMail(B.email)]);
  for (const [mail, file] of [
    [mailA, 'certificate-Amina-Okafor.pdf'],
    [mailB, 'certificate-Bruno-Lindqvist.pdf'],
  ] as const) {
    expect(mail.attachmentDetails).toEqual([
      { filename: file, contentType: 'application/pdf', size: expect.any(Number) as number },
    ]);
    expect(mail.attachmentDetails[0]!.size).toBeGreaterThan(5_000);
  }
  seen.certificateSizeA = mailA.attachmentDetails[0]!.size;
  expect(mailA.text).toContain('with a score of 100%');
  expect(mailB.text).toContain('with a score of 75%');
  const a = verificationIn(mailA);
  const b = verificationIn(mailB);
  seen.codeA = a.code;
  seen.codeB = b.code;
  expect(a.url.pathname).toBe(`/verify/${a.code}`);
  expect(a.code).not.toBe(b.code);
  // The code the student saw on their completion page is the certificate's.
  expect(a.code).toBe(seen.completionCodeA);

  // A downloads the same certificate from their completion page.
  const [own] = await Promise.all([
    seen.pageA!.waitForEvent('download', { timeout: 60_000 }),
    seen.pageA!.getByRole('button', { name: 'Download Certificate' }).click(),
  ]);
  const ownPdf = await contentOf(own);
  expect(ownPdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(ownPdf.length).toBe(seen.certificateSizeA);

  const { context, page } = await newPage(browser, product.url);
  contexts.push(context);
  // Opened as the mail's reader would: the link as it is.
  await page.goto(a.url.href);
  await shown(page.getByRole('heading', { level: 1, name: 'Valid certificate' }));
  await shown(page.getByText(A.name));
  await screen(page, 'verify-valid');
  await page.goto(b.url.href);
  await shown(page.getByRole('heading', { level: 1, name: 'Valid certificate' }));
  await shown(page.getByText(B.name));
});

test('when the admin reviews the results, then the dashboard, the list, the detail and the item analysis show the figures of the three attempts, and the PDF report downloads', async () => {
  await sidebar(admin, 'Dashboard').click();
  await atPath(admin, '/admin/dashboard');
  const recent = admin.getByRole('region', { name: 'Recent Assessment Results' });
  await shown(recent.getByRole('listitem').filter({ hasText: A.name }));
  await expectStats(admin, {
    'Total Students': '2',
    'Completed Assessments': '3',
    'Pass Rate': '67%',
    'Pending Invites': '0',
  });
  expect(await recent.getByRole('listitem').count()).toBe(3);
  const recentOf = (who: { name: string }, percent: string) =>
    recent.getByRole('listitem').filter({ hasText: who.name }).filter({ hasText: percent });
  await shown(recentOf(A, '100%').getByText('Passed', { exact: true }));
  await shown(recentOf(B, '75%').getByText('Passed', { exact: true }));
  await shown(recentOf(B, '25%').getByText('Failed', { exact: true }));
  await screen(admin, 'dashboard');

  await sidebar(admin, 'Results').click();
  await atPath(admin, '/admin/results');
  const table = admin.getByRole('table', { name: 'Assessment results' });
  await shown(table.getByRole('row').filter({ hasText: A.email }));
  await expectStats(admin, { 'Total Results': '3', Passed: '2', Failed: '1' });
  expect(await table.locator('tbody tr').count()).toBe(3);
  const rowOf = (who: { email: string }, percent: string) => resultRow(table, who, percent);
  for (const [who, percent, points, status, code] of [
    [A, '100%', '4 / 4', 'Passed', seen.codeA!],
    [B, '75%', '3 / 4', 'Passed', seen.codeB!],
    [B, '25%', '1 / 4', 'Failed', undefined],
  ] as const) {
    const row = rowOf(who, percent);
    expect(await row.count()).toBe(1);
    await shown(row.getByText(points));
    await shown(row.getByText(status, { exact: true }));
    // A passed result's assessment code is its certificate's verification code.
    if (code) await shown(row.getByText(code));
  }
  await screen(admin, 'results-list');

  await rowOf(A, '100%')
    .getByRole('link', { name: `View result of ${A.name}` })
    .click();
  await atPath(admin, /^\/admin\/results\/[^/]+$/);
  const student = admin.getByRole('region', { name: 'Student Information' });
  await shown(student.getByText(A.email));
  await shown(student.getByText(seen.codeA!));
  const overview = admin.getByRole('region', { name: 'Assessment Overview' });
  await shown(overview.getByText('100%', { exact: true }));
  await shown(overview.getByText('PASSED'));
  await shown(overview.getByText('Excellent'));
  await shown(overview.getByText('4 / 4 points'));
  await shown(overview.getByText('70%', { exact: true }));
  const sections = admin.getByRole('region', { name: 'Section Performance' }).getByRole('listitem');
  await shown(sections.filter({ hasText: 'Technology' }).getByText('2 / 2 correct'));
  await shown(sections.filter({ hasText: 'Study Habits' }).getByText('1 / 1 correct'));
  const items = admin.getByRole('region', { name: 'Question-by-Question Results' }).getByRole('listitem');
  expect(await items.locator('.question-results__number').allTextContents()).toEqual(['Q1', 'Q2', 'Q3']);
  for (const [index, text] of [Q1, Q2, Q3].entries()) {
    await shown(items.nth(index).getByText(text));
    await shown(items.nth(index).getByText('Correct', { exact: true }));
  }
  expect(await items.locator('.question-results__points').allTextContents()).toEqual([
    '1 point of 1',
    '2 points of 2',
    '1 point of 1',
  ]);
  // The plan A uploaded is there for the admin to read.
  const [plan] = await Promise.all([
    admin.waitForEvent('download'),
    items
      .nth(2)
      .getByRole('button', { name: `Download ${planOf('A').name}` })
      .click(),
  ]);
  expect((await contentOf(plan)).equals(planOf('A').buffer)).toBe(true);
  await screen(admin, 'result-detail');

  const [report] = await Promise.all([
    admin.waitForEvent('download', { timeout: 60_000 }),
    admin.getByRole('button', { name: 'Download PDF Report' }).click(),
  ]);
  await shown(toast(admin, 'PDF report downloaded successfully'));
  expect(report.suggestedFilename()).toBe('assessment-report-Amina-Okafor.pdf');
  const pdf = await contentOf(report);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf.length).toBeGreaterThan(5_000);
  expect(pdf.length).toBeLessThan(5_000_000);

  // The certificate kept with the result is the one the mail carried.
  const [certificate] = await Promise.all([
    admin.waitForEvent('download', { timeout: 60_000 }),
    admin.getByRole('button', { name: 'Download Certificate' }).click(),
  ]);
  expect(certificate.suggestedFilename()).toBe(`certificate-${A.name}-${A.email}.pdf`);
  const certificatePdf = await contentOf(certificate);
  expect(certificatePdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(certificatePdf.length).toBe(seen.certificateSizeA);

  await admin.getByRole('link', { name: 'Back to Results' }).click();
  await admin.getByRole('link', { name: 'Item Analysis' }).click();
  await atPath(admin, '/admin/results/analysis');
  const facility = admin.getByRole('table', { name: 'Facility per question' });
  await shown(facility);
  await shown(admin.getByText('3 results on version 2.'));
  const figures = await facility
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => Array.from(row.querySelectorAll('td')).map((cell) => cell.textContent?.trim() ?? '')),
    );
  expect(figures).toEqual([
    // Attempts, Correct, Skipped (every question is required here), Facility.
    [`Q1${Q1}`, 'Technology', '3', '1', '0', '33%'],
    [`Q2${Q2}`, 'Technology', '3', '2', '0', '67%'],
    [`Q3${Q3}`, 'Study Habits', '3', '3', '0', '100%'],
  ]);
  const means = admin.getByRole('region', { name: 'Section Means' }).getByRole('listitem');
  expect(await means.allTextContents()).toEqual(['Technology56%', 'Study Habits100%']);
  const histogram = admin.getByRole('list', { name: 'Distribution of percentages' });
  expect(await histogram.locator('.visually-hidden').allTextContents()).toEqual([
    '0–9%: 0 results',
    '10–19%: 0 results',
    '20–29%: 1 result',
    '30–39%: 0 results',
    '40–49%: 0 results',
    '50–59%: 0 results',
    '60–69%: 0 results',
    '70–79%: 1 result',
    '80–89%: 0 results',
    '90–100%: 1 result',
  ]);
  await screen(admin, 'item-analysis');
});

test('when student A is deleted, then their results, certificate, uploaded file, mail log and link are gone and B keeps theirs', async () => {
  const idA = await studentId(A.email);
  const detail = await api<{ results: { _id: string; student: { email: string } }[] }>(
    product.url,
    'GET',
    `/api/admin/results?search=${encodeURIComponent(A.email)}`,
    { token: adminToken },
  );
  const resultA = detail.body.results[0]!._id;
  const answers = await api<{ result: { answers: { file?: { url: string } }[] } }>(
    product.url,
    'GET',
    `/api/admin/results/${resultA}`,
    { token: adminToken },
  );
  const fileUrl = answers.body.result.answers.find((a) => a.file)!.file!.url;
  const download = (url: string) =>
    fetch(new URL(url, product.url), { headers: { authorization: `Bearer ${adminToken}` } });
  expect((await download(fileUrl)).status).toBe(200);
  const deliveries = async () =>
    (
      await api<{ deliveries: unknown[] }>(
        product.url,
        'GET',
        `/api/admin/notifications/deliveries?studentIds=${idA}`,
        { token: adminToken },
      )
    ).body.deliveries;
  expect(await deliveries()).toHaveLength(1);

  await sidebar(admin, 'Students').click();
  await atPath(admin, '/admin/students');
  await admin.getByRole('searchbox', { name: 'Search students' }).fill(A.email);
  const row = admin.getByRole('row').filter({ hasText: A.email });
  await shown(row.getByText('Completed', { exact: true }));
  await row.getByRole('button', { name: `Delete ${A.name}` }).click();
  const confirm = admin.getByRole('dialog', { name: 'Delete Student' });
  await shown(confirm.getByText(/cannot be undone/));
  await screen(admin, 'students-delete', { overlay: true });
  await confirm.getByRole('button', { name: 'Delete Student' }).click();
  await shown(toast(admin, 'Student deleted successfully'));
  await shown(admin.getByText('No students found'));

  // The other services erase their copies from the deletion event.
  const token = seen.linkA!.pathname.split('/').pop()!;
  await eventually(
    () => api(product.url, 'GET', `/api/student/${token}/assessment`).then((r) => r.status),
    (status) => status === 404,
    "A's link answering 404",
  );
  await eventually(
    () =>
      api(product.url, 'GET', `/api/admin/results/${resultA}`, { token: adminToken }).then((r) => r.status),
    (status) => status === 404,
    "A's result being deleted",
  );
  await eventually(
    () => fetch(`${product.url}/api/certificates/${seen.codeA}`).then((r) => r.status),
    (status) => status === 404,
    "A's certificate being withdrawn",
  );
  await eventually(
    () => download(fileUrl).then((r) => r.status),
    (status) => status === 404,
    "A's uploaded plan being deleted",
  );
  await eventually(deliveries, (list) => list.length === 0, "A's mail log being erased");
  // B's link still leads to their result.
  const tokenB = seen.linkB!.pathname.split('/').pop()!;
  const stillB = await api<{ alreadyCompleted?: boolean }>(
    product.url,
    'GET',
    `/api/student/${tokenB}/assessment`,
  );
  expect(stillB.status).toBe(200);
  expect(stillB.body.alreadyCompleted).toBe(true);

  // What the admin sees: only B's two results remain.
  await sidebar(admin, 'Results').click();
  const table = admin.getByRole('table', { name: 'Assessment results' });
  await shown(table.getByRole('row').filter({ hasText: B.email }));
  expect(await table.locator('tbody tr').count()).toBe(2);
  expect(await table.getByText(A.email).count()).toBe(0);
  await expectStats(admin, { 'Total Results': '2', Passed: '1', Failed: '1' });

  // B's passing retake, untouched, with its wrong answer shown as such.
  await resultRow(table, B, '75%')
    .getByRole('link', { name: `View result of ${B.name}` })
    .click();
  const overview = admin.getByRole('region', { name: 'Assessment Overview' });
  await shown(overview.getByText('75%', { exact: true }));
  await shown(overview.getByText('PASSED'));
  await shown(overview.getByText('Satisfactory'));
  await shown(overview.getByText('3 / 4 points'));
  const sections = admin.getByRole('region', { name: 'Section Performance' }).getByRole('listitem');
  const technology = sections.filter({ hasText: 'Technology' });
  await shown(technology.getByText('1 / 2 correct'));
  await shown(technology.getByText('66.7%', { exact: true }));
  await shown(technology.getByText('Needs Improvement'));
  await shown(sections.filter({ hasText: 'Study Habits' }).getByText('1 / 1 correct'));
  const items = admin.getByRole('region', { name: 'Question-by-Question Results' }).getByRole('listitem');
  expect(await items.locator('.badge').allTextContents()).toEqual(['Incorrect', 'Correct', 'Correct']);
  expect(await items.locator('.question-results__points').allTextContents()).toEqual([
    '0 points of 1',
    '2 points of 2',
    '1 point of 1',
  ]);
  expect(await items.nth(0).locator('.question-results__answer').allTextContents()).toEqual([
    'Answer: No',
    'Correct answer: Yes',
  ]);
  await sidebar(admin, 'Dashboard').click();
  await shown(admin.getByRole('region', { name: 'Recent Assessment Results' }).getByText(B.name).first());
  await expectStats(admin, { 'Total Students': '1', 'Completed Assessments': '2', 'Pass Rate': '50%' });

  // What anyone holding A's code or link sees.
  const { context, page } = await newPage(browser, product.url);
  contexts.push(context);
  await page.goto(`/verify/${seen.codeA}`);
  await shown(page.getByRole('heading', { level: 1, name: 'No certificate has this code' }));
  await screen(page, 'verify-unknown');
  await page.goto(`/verify/${seen.codeB}`);
  await shown(page.getByRole('heading', { level: 1, name: 'Valid certificate' }));
  await page.goto(seen.linkA!.href);
  // A's link no longer works: its own page says so at the link, not the admin portal's sign-in.
  await shown(page.getByRole('heading', { level: 1, name: 'Invalid or expired invitation link' }));
  await atPath(page, seen.linkA!.pathname);
  await expectAccessible(page, 'an invalid invitation link');
});

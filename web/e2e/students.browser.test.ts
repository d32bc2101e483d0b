/*
 * Student Management in a real browser against the product as `make start` runs it: invite a student,
 * find them by search and by status, copy their assessment link, resend the invitation, delete them,
 * and import a CSV after its dry run. The list, the invite dialog and the import report each get an
 * accessibility scan, at desktop and phone width. With SCREENSHOTS=1 it also saves the screen's pictures
 * to docs/screenshots (students-*-desktop.png and -mobile.png: the list with a reminded student, the invite dialog, the
 * confirmation of "Send a reminder now" with its count, the reminder settings, a student's data export ready).
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, ROOT, api, expectAccessible, shown, productForFile, toast } from './support';
import { inviteStudent, openSignedIn, someone, type InvitedStudent } from './steps';

jest.setTimeout(180_000);

const file = productForFile();
let token: string;

beforeAll(async () => {
  token = await file.superToken();
});

/** Each test works on its own students (someone), so the order of tests does not matter. */
const invite = async (student: { name: string; email: string }) =>
  (await inviteStudent(file.url, token, student)).student;

/** Opens the screen signed in (by token, so no welcome toast covers it) and waits for the table. */
async function openStudents(viewport = DESKTOP): Promise<Page> {
  const { context, page } = await file.open(viewport);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: file.url });
  await openSignedIn(page, token, '/admin/students');
  // With nobody invited yet the empty state stands where the table would be.
  await shown(page.getByRole('table', { name: 'Students' }).or(page.getByText('No students found')));
  return page;
}

const search = async (page: Page, text: string) => {
  await page.getByRole('searchbox', { name: 'Search students' }).fill(text);
};
const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

test('when an admin invites a student, then the toast names them and search and the status filter find them', async () => {
  const student = someone('Inv');
  const page = await openStudents();
  await expectAccessible(page, 'student list');
  await page.getByRole('button', { name: 'Invite Student' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite Student' });
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  await shown(dialog.getByText('Name is required'));
  await expectAccessible(page, 'invite dialog with errors');
  await dialog.getByLabel('Name').fill(student.name);
  await dialog.getByLabel('Email').fill(student.email.toUpperCase());
  await dialog.getByLabel('Phone number (optional)').fill('+1 555 0100');
  const delivery = page.waitForResponse(
    (r) => r.url().includes('/api/admin/notifications/deliveries') && r.status() === 200,
  );
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  await shown(toast(page, `Invitation sent to ${student.name}`));

  await search(page, student.email.slice(0, 12).toUpperCase());
  await shown(row(page, student.name).getByText('Invited', { exact: true }));
  // The table reads the invitation's delivery; once the mail is out no warning stands next to the status.
  await delivery;
  await row(page, student.name).getByText('Invite queued').waitFor({ state: 'hidden', timeout: 20_000 });
  expect(await row(page, student.name).getByText('Invite failed').count()).toBe(0);
  await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Completed' });
  await shown(page.getByText('No students found'));
  await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Invited' });
  await shown(row(page, student.name));

  // The same address again, in any case, is refused at the Email field, which takes the focus; the dialog stays.
  await page.getByRole('button', { name: 'Invite Student' }).click();
  await dialog.getByLabel('Name').fill('Someone Else');
  await dialog.getByLabel('Email').fill(student.email.toUpperCase());
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  const email = dialog.getByLabel('Email');
  await shown(dialog.getByText('A student with this email is already invited'));
  expect(await email.getAttribute('aria-invalid')).toBe('true');
  expect(await email.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(
    await page
      .locator('.Toastify')
      .getByText(/already invited/i)
      .count(),
  ).toBe(0);
  await shown(dialog);
});

test('when the link is copied, then the clipboard holds the assessment URL and a check mark shows for a moment', async () => {
  const student = await invite(someone('Copy'));
  const page = await openStudents();
  await search(page, student.email);
  await row(page, student.name)
    .getByRole('button', { name: `Copy assessment URL for ${student.name}` })
    .click();
  await shown(toast(page, 'Assessment URL copied to clipboard'));
  await shown(row(page, student.name).getByRole('button', { name: `Link copied for ${student.name}` }));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/\/assessment\/[A-Za-z0-9_-]{20,}$/);
  expect(copied).toBe(student.inviteUrl ?? `${file.url}/assessment/${student.inviteToken}`);
  await shown(
    row(page, student.name).getByRole('button', { name: `Copy assessment URL for ${student.name}` }),
  );
});

test('when an invitation is resent, extra time set and a student deleted, then each takes effect and deleting asks first', async () => {
  const student = await invite(someone('Res'));
  const page = await openStudents();
  await search(page, student.email);
  await row(page, student.name)
    .getByRole('button', { name: `Resend invitation to ${student.name}` })
    .click();
  const resend = page.getByRole('dialog', { name: 'Resend Invitation' });
  await resend.getByRole('button', { name: 'Resend Invitation' }).click();
  await shown(toast(page, `Invitation sent to ${student.name}`));

  // An accommodation set later shows next to the status.
  await row(page, student.name)
    .getByRole('button', { name: `Set extra time for ${student.name}` })
    .click();
  const extra = page.getByRole('dialog', { name: 'Extra Time' });
  await extra.getByLabel('Extra time (%)').fill('50');
  await extra.getByRole('button', { name: 'Save' }).click();
  await shown(row(page, student.name).getByText('+50% time'));

  await row(page, student.name)
    .getByRole('button', { name: `Delete ${student.name}` })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Delete Student' });
  await shown(confirm.getByText(/cannot be undone/));
  await expectAccessible(page, 'delete confirmation');
  await confirm.getByRole('button', { name: 'Delete Student' }).click();
  await shown(toast(page, 'Student deleted successfully'));
  await shown(page.getByText('No students found'));
  const left = await api<{ students: InvitedStudent[] }>(
    file.url,
    'GET',
    `/api/admin/students?search=${encodeURIComponent(student.email)}`,
    { token },
  );
  expect(left.body.students).toHaveLength(0);
});

test('when a CSV is imported, then the dry run reports bad lines and confirming invites the rest', async () => {
  const taken = await invite(someone('Taken'));
  const a = someone('CsvA');
  const b = someone('CsvB');
  const csv = [
    'name,email,phoneNumber,extraTimePercent',
    `${a.name},${a.email},,25`,
    'Broken Row,not-an-email,,',
    `${b.name},${b.email},+1 555 0101,`,
    `Again,${a.email.toUpperCase()},,`,
    `Already,${taken.email},,`,
  ].join('\n');
  const page = await openStudents();
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import Students' });
  await dialog
    .getByLabel('CSV file')
    .setInputFiles({ name: 'students.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Check File' }).click();
  const report = dialog.getByRole('region', { name: 'Check result' });
  await shown(report.getByText(/^Line 3:/));
  await shown(report.getByText(/^Line 5:/));
  await shown(report.getByText(/^Line 6:/));
  await expectAccessible(page, 'import report');
  await dialog.getByRole('button', { name: 'Invite 2 students' }).click();
  await shown(toast(page, '2 students invited'));
  await search(page, 'csv');
  await shown(row(page, a.name));
  await shown(row(page, b.name));
});

test('when the screen is phone-wide, then the list and the invite dialog fit and pass axe', async () => {
  await invite(someone('Phone'));
  const page = await openStudents(MOBILE);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page, 'student list at 360 px');
  await page.getByRole('button', { name: 'Invite Student' }).click();
  await shown(page.getByRole('dialog', { name: 'Invite Student' }));
  await expectAccessible(page, 'invite dialog at 360 px');
  await page.keyboard.press('Escape');
  // Read only: the settings are the shared installation's.
  await page.getByRole('button', { name: 'Reminder settings' }).click();
  await shown(
    page.getByRole('dialog', { name: 'Reminder Settings' }).getByLabel('Most reminders per student'),
  );
  await expectAccessible(page, 'reminder settings at 360 px');
});

test('when an admin exports a student’s data, then every part of the product answers and the ZIP downloads, axe-clean at phone width', async () => {
  const student = await invite(someone('Exported'));
  const page = await openStudents(MOBILE);
  await search(page, student.email);
  await page.getByRole('button', { name: `Export the data of ${student.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Export Data: ${student.name}` });
  await shown(dialog.getByRole('button', { name: 'Gather the data' }));
  await expectAccessible(page, 'export dialog at 360 px');
  await dialog.getByRole('button', { name: 'Gather the data' }).click();
  await shown(dialog.getByRole('button', { name: 'Download ZIP' }));
  await shown(dialog.getByText(/^Ready\. It can be downloaded until/));
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download ZIP' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^Student-Exported.+-data-\d{4}-\d{2}-\d{2}\.zip$/);
  // The shared product's browser may be remote: the file is saved here first.
  const saved = path.join(tmpdir(), `readiness-export-${Date.now()}.zip`);
  await download.saveAs(saved);
  const bytes = readFileSync(saved);
  rmSync(saved, { force: true });
  // A ZIP: it starts with a local file header.
  expect(bytes.subarray(0, 4).toString('binary')).toBe('PK\x03\x04');
  await expectAccessible(page, 'export dialog, ready, at 360 px');
});

const shootIfAsked = process.env.SCREENSHOTS === '1' ? test : test.skip;

shootIfAsked.each([
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
] as const)('when the student screens are shown at %s width, then each is saved', async (width, viewport) => {
  const out = path.join(ROOT, 'docs/screenshots');
  mkdirSync(out, { recursive: true });
  const shoot = (page: Page, name: string) =>
    page.screenshot({
      path: path.join(out, `${name}-${width}.png`),
      fullPage: false,
      animations: 'disabled',
    });
  await invite(someone('Shot'));
  const reminded = await invite(someone('Reminded'));
  await api(file.url, 'POST', `/api/admin/students/${reminded._id}/remind`, { token });
  const page = await openStudents(viewport);
  await shown(row(page, reminded.name).getByText(/^Reminded once, last on/));
  await shoot(page, 'students-list');
  await page.getByRole('button', { name: 'Invite Student' }).click();
  await shown(page.getByRole('dialog', { name: 'Invite Student' }));
  await shoot(page, 'students-invite');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Send a reminder now', exact: true }).click();
  await shown(page.getByRole('dialog', { name: 'Send a Reminder' }));
  await shoot(page, 'students-remind-all');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Reminder settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Reminder Settings' });
  await shown(settings.getByLabel('Remind after (days)'));
  expect(await settings.getByLabel('Remind after (days)').inputValue()).toMatch(/^\d/);
  await shoot(page, 'students-reminder-settings');
  await page.keyboard.press('Escape');
  await search(page, reminded.email);
  await page.getByRole('button', { name: `Export the data of ${reminded.name}` }).click();
  const exportDialog = page.getByRole('dialog', { name: `Export Data: ${reminded.name}` });
  await exportDialog.getByRole('button', { name: 'Gather the data' }).click();
  await shown(exportDialog.getByRole('button', { name: 'Download ZIP' }));
  await shoot(page, 'students-export');
});

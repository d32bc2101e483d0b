/*
 * The dashboard, Results Management, the result detail and item analysis in a real browser against
 * the product as `make start` runs it. Results are made the way students make them: invited through
 * the admin API, then each attempt started and submitted through the student API with right or wrong
 * answers taken from the seeded assessment's answer key. Every screen gets an accessibility scan at
 * desktop and phone width. With SCREENSHOTS=1 it also saves the screens' pictures to docs/screenshots
 * (dashboard-results-*, results-*.png).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  DESKTOP,
  MOBILE,
  ROOT,
  api,
  expectAccessible,
  shown,
  productForFile,
  startProductAndBrowser,
  toast,
} from './support';
import { inviteStudent, openSignedIn, someone } from './steps';

jest.setTimeout(240_000);

interface Question {
  id: string;
  type: 'yes_no' | 'multiple_choice' | 'file_upload';
  points: number;
  section: number;
  required: boolean;
  correctAnswer?: string;
  options?: { id: string; text: string }[];
}

interface ResultRowJson {
  _id: string;
  student: { name: string; email: string };
  score: number;
  totalPoints: number;
  percentage: number;
  passed: boolean;
  assessmentCode?: string | null;
}

const OUT = path.join(ROOT, 'docs/screenshots');
const SCREENSHOTS = process.env.SCREENSHOTS === '1';

const file = productForFile(() => startProductAndBrowser({}, { own: true }));
let token: string;
let questions: Question[];

/** The answer that is right, or one that is wrong, for a question of the answer key. */
function answerFor(question: Question, right: boolean): string {
  if (question.type === 'yes_no') {
    return right ? question.correctAnswer! : question.correctAnswer === 'yes' ? 'no' : 'yes';
  }
  if (right) return question.correctAnswer!;
  return question.options!.find((o) => o.id !== question.correctAnswer)!.id;
}

/**
 * One student's attempt through the student API: invited, started, and submitted with the questions
 * `right` chooses answered correctly (a file uploaded for a right file question, nothing for a wrong
 * one). Resolves once the result is recorded and listed.
 */
async function takeAssessment(
  student: { name: string; email: string },
  right: (q: Question, index: number) => boolean,
): Promise<ResultRowJson> {
  const { inviteToken } = await inviteStudent(file.url, token, student);
  const started = await api<{ attempt: { id: string; startedAt: string } }>(
    file.url,
    'POST',
    `/api/student/${inviteToken}/start`,
  );
  expect([200, 201]).toContain(started.status);

  const form = new FormData();
  const answers: { questionId: string; answer: string }[] = [];
  const fileQuestionIds: string[] = [];
  questions.forEach((q, i) => {
    const correct = right(q, i);
    if (q.type !== 'file_upload') answers.push({ questionId: q.id, answer: answerFor(q, correct) });
    else if (correct) {
      answers.push({ questionId: q.id, answer: 'file_uploaded' });
      fileQuestionIds.push(q.id);
      form.append('files', new Blob(['My paragraph.\n'], { type: 'text/plain' }), `${q.id}-answer.txt`);
    }
  });
  form.append('attemptId', started.body.attempt.id);
  form.append('answers', JSON.stringify(answers));
  form.append('timeSpent', '3');
  form.append('startedAt', started.body.attempt.startedAt);
  form.append('fileQuestionIds', JSON.stringify(fileQuestionIds));
  const submitted = await fetch(`${file.url}/api/student/${inviteToken}/submit`, {
    method: 'POST',
    body: form,
  });
  expect([200, 202]).toContain(submitted.status);

  // The result is recorded from the submission event; it is listed within a second or two.
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const listed = await api<{ results: ResultRowJson[] }>(
      file.url,
      'GET',
      `/api/admin/results?search=${encodeURIComponent(student.email)}`,
      { token },
    );
    const found = listed.body.results?.find((r) => r.student.email === student.email);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No result was recorded for ${student.email}`);
}

const allRight = () => true;
const allWrong = () => false;

beforeAll(async () => {
  token = await file.superToken();
  const current = await api<{ assessment: { questions: Question[] } }>(file.url, 'GET', '/api/assessment', {
    token,
  });
  questions = current.body.assessment.questions;
  expect(questions.length).toBeGreaterThan(0);
  if (SCREENSHOTS) mkdirSync(OUT, { recursive: true });
}, 200_000);

/** Opens a screen signed in by token, so no welcome toast covers it. */
async function open(route: string, viewport = DESKTOP): Promise<Page> {
  const page = await file.page(viewport);
  await openSignedIn(page, token, route);
  return page;
}

/*
 * As screenshots.browser.test.ts does: the desktop pictures show the window as a person sees it (a
 * full-page capture would stretch the page past the fixed sidebar), the phone ones the whole page.
 */
const shoot = async (page: Page, name: string) => {
  if (!SCREENSHOTS) return;
  await page.screenshot({
    path: path.join(OUT, `${name}.png`),
    fullPage: name.endsWith('-mobile'),
    animations: 'disabled',
  });
};

const stat = (page: Page, label: string) =>
  page.getByRole('region', { name: label }).locator('.stat-card__value');
const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

let passer: ResultRowJson;
let failer: ResultRowJson;

test('when one student passes and one fails, then the dashboard counts both and lists them as recent results', async () => {
  const fresh = await open('/admin/dashboard');
  await shown(fresh.getByText('No results yet'));
  passer = await takeAssessment(someone('Pass'), allRight);
  failer = await takeAssessment(someone('Fail'), allWrong);
  expect(passer).toMatchObject({ percentage: 100, passed: true });
  expect(failer).toMatchObject({ percentage: 0, passed: false });

  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const) {
    const page = await open('/admin/dashboard', viewport);
    const recent = page.getByRole('region', { name: 'Recent Assessment Results' });
    await shown(recent.getByRole('link', { name: failer.student.name }));
    expect(await stat(page, 'Total Students').textContent()).toBe('2');
    expect(await stat(page, 'Completed Assessments').textContent()).toBe('2');
    expect(await stat(page, 'Pass Rate').textContent()).toBe('50%');
    expect(await stat(page, 'Pending Invites').textContent()).toBe('0');
    const passItem = recent.getByRole('listitem').filter({ hasText: passer.student.name });
    await shown(passItem.getByText('100%'));
    await shown(passItem.getByText('Passed', { exact: true }));
    await shown(passItem.getByText(passer.student.email));
    const failItem = recent.getByRole('listitem').filter({ hasText: failer.student.name });
    await shown(failItem.getByText('0%'));
    await shown(failItem.getByText('Failed', { exact: true }));
    await expectAccessible(page, `dashboard at ${width} width`);
    await shoot(page, `dashboard-results-${width}`);
  }
});

test('when there are more results than a page holds, then paging, the filter and the search work through the server', async () => {
  // 22 more: every fourth passes, so both filters have more than one page of 10.
  for (let i = 0; i < 22; i++) {
    await takeAssessment(someone(`Page${String(i).padStart(2, '0')}`), i % 4 === 0 ? allRight : allWrong);
  }
  const page = await open('/admin/results?limit=10');
  await shown(page.getByRole('table', { name: 'Assessment results' }));
  expect(await stat(page, 'Total Results').textContent()).toBe('24');
  expect(await stat(page, 'Passed').textContent()).toBe('7');
  expect(await stat(page, 'Failed').textContent()).toBe('17');
  await shown(page.getByText('Showing 1–10 of 24 results'));
  const pages = page.getByRole('navigation', { name: 'Result pages' });
  expect(await pages.getByRole('button', { name: /^Page \d+$/ }).allTextContents()).toEqual(['1', '2', '3']);
  await pages.getByRole('button', { name: 'Last' }).click();
  await shown(page.getByText('Showing 21–24 of 24 results'));
  expect(new URL(page.url()).searchParams.get('page')).toBe('3');
  expect(await page.getByRole('table').getByRole('row').count()).toBe(5);
  await pages.getByRole('button', { name: 'Previous' }).click();
  await shown(page.getByText('Showing 11–20 of 24 results'));

  // A filter goes back to page 1 and survives a reload, as the address carries it.
  await page.getByRole('combobox', { name: 'Result', exact: true }).selectOption({ label: 'Passed' });
  await shown(page.getByText('Showing 1–7 of 7 results'));
  expect(new URL(page.url()).searchParams.has('page')).toBe(false);
  await page.reload();
  await shown(page.getByText('Showing 1–7 of 7 results'));
  expect(await page.getByRole('combobox', { name: 'Result', exact: true }).inputValue()).toBe('passed');
  expect(await page.getByRole('table').getByText('Failed', { exact: true }).count()).toBe(0);

  await page.getByRole('combobox', { name: 'Result', exact: true }).selectOption({ label: 'All Results' });
  await page.getByRole('searchbox', { name: 'Search results' }).fill(failer.student.email.toUpperCase());
  await shown(page.getByText('Showing 1–1 of 1 result'));
  await shown(row(page, failer.student.name).getByText('Failed', { exact: true }));
  await page.getByRole('searchbox', { name: 'Search results' }).fill('nobody-at-all');
  await shown(page.getByText('No results found'));

  // Sorted by score, highest first: the passes lead.
  await page.getByRole('searchbox', { name: 'Search results' }).fill('');
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Highest score' });
  await shown(page.getByText('Showing 1–10 of 24 results'));
  await page.waitForFunction(() => {
    const cells = Array.from(document.querySelectorAll('tbody tr')).map((r) => r.textContent ?? '');
    return cells.length === 10 && cells.slice(0, 7).every((t) => t.includes('Passed'));
  });
  await expectAccessible(page, 'results list at desktop width');
  await shoot(page, 'results-list-desktop');

  const phone = await open('/admin/results?limit=10', MOBILE);
  await shown(phone.getByRole('table', { name: 'Assessment results' }));
  await expectAccessible(phone, 'results list at phone width');
  await shoot(phone, 'results-list-mobile');
});

test('when a result is opened, then the detail shows the hand-computed figures and every question in order', async () => {
  // Right on the first half of the questions only.
  const half = Math.ceil(questions.length / 2);
  const mixed = await takeAssessment(someone('Mixed'), (_q, i) => i < half);
  const expectedScore = questions.slice(0, half).reduce((sum, q) => sum + q.points, 0);
  // A wrong file answer is no file at all: on an optional question that is a skip, in neither score nor total.
  const skipped = questions.filter((q, i) => i >= half && q.type === 'file_upload' && !q.required);
  const totalPoints = questions.filter((q) => !skipped.includes(q)).reduce((sum, q) => sum + q.points, 0);
  // One decimal (docs/scoring.md); these figures are nowhere near a whole number the rule would cut at.
  const percentage = Math.round((expectedScore * 1000) / totalPoints) / 10;
  expect(mixed).toMatchObject({ score: expectedScore, totalPoints, percentage });

  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const) {
    const page = await open('/admin/results', viewport);
    await page.getByRole('searchbox', { name: 'Search results' }).fill(mixed.student.email);
    await shown(page.getByText('Showing 1–1 of 1 result'));
    await row(page, mixed.student.name)
      .getByRole('link', { name: `View result of ${mixed.student.name}` })
      .click();
    await page.waitForURL(`**/admin/results/${mixed._id}`);
    const student = page.getByRole('region', { name: 'Student Information' });
    await shown(student.getByText(mixed.student.email));
    await shown(student.getByText(mixed.assessmentCode ?? 'N/A'));
    const overview = page.getByRole('region', { name: 'Assessment Overview' });
    await shown(overview.getByText(`${percentage}%`, { exact: true }));
    await shown(overview.getByText(mixed.passed ? 'PASSED' : 'FAILED'));
    await shown(overview.getByText(`${expectedScore} / ${totalPoints} points`));
    await shown(overview.getByText('70%', { exact: true }));
    const items = page.getByRole('region', { name: 'Question-by-Question Results' }).getByRole('listitem');
    expect(await items.count()).toBe(questions.length);
    expect(await items.locator('.question-results__number').allTextContents()).toEqual(
      questions.map((_q, i) => `Q${i + 1}`),
    );
    expect(await items.getByText('Correct', { exact: true }).count()).toBe(half);
    expect(await items.getByText('Incorrect', { exact: true }).count()).toBe(
      questions.length - half - skipped.length,
    );
    expect(await items.getByText('Skipped', { exact: true }).count()).toBe(skipped.length);
    const sections = page.getByRole('region', { name: 'Section Performance' }).getByRole('listitem');
    expect(await sections.count()).toBeGreaterThan(0);
    await shown(sections.first().getByText(/\d+ \/ \d+ correct/));
    expect(await page.getByRole('button', { name: 'Download Certificate' }).count()).toBe(
      mixed.passed ? 1 : 0,
    );
    await expectAccessible(page, `result detail at ${width} width`);
    await shoot(page, `results-detail-${width}`);
  }
});

test('when the PDF report and the certificate are downloaded from the detail, then each arrives as a PDF under its SPEC name', async () => {
  // The certificate is rendered after the pass is recorded; wait until the report service holds it.
  const deadline = Date.now() + 90_000;
  let status = 0;
  while (Date.now() < deadline) {
    status = (
      await fetch(`${file.url}/api/admin/results/${passer._id}/certificate`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).status;
    if (status === 200) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  expect(status).toBe(200);

  const page = await open(`/admin/results/${passer._id}`);
  await shown(page.getByRole('region', { name: 'Student Information' }));
  const name = passer.student.name;
  const [report] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.getByRole('button', { name: 'Download PDF Report' }).click(),
  ]);
  expect(report.suggestedFilename()).toBe(`assessment-report-${name.replace(/ /g, '-')}.pdf`);
  await shown(toast(page, 'PDF report downloaded successfully'));
  const reportPath = await report.path();
  expect(readFileSync(reportPath).subarray(0, 5).toString()).toBe('%PDF-');

  const [certificate] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.getByRole('button', { name: 'Download Certificate' }).click(),
  ]);
  expect(certificate.suggestedFilename()).toBe(`certificate-${name}-${passer.student.email}.pdf`);
  expect(
    readFileSync(await certificate.path())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
});

test('when a certificate is resent and a result deleted from the list, then each asks first and takes effect', async () => {
  const page = await open(`/admin/results?search=${encodeURIComponent(passer.student.email)}`);
  await row(page, passer.student.name)
    .getByRole('button', { name: `Resend certificate to ${passer.student.name}` })
    .click();
  const resend = page.getByRole('dialog', { name: 'Resend Certificate' });
  await resend.getByRole('button', { name: 'Resend Certificate' }).click();
  await shown(toast(page, 'Certificate resent successfully'));

  await page.getByRole('searchbox', { name: 'Search results' }).fill(failer.student.email);
  await shown(row(page, failer.student.name));
  await row(page, failer.student.name)
    .getByRole('button', { name: `Delete result of ${failer.student.name}` })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Delete Result' });
  await shown(confirm.getByText(/cannot be undone/));
  await expectAccessible(page, 'delete confirmation');
  await shoot(page, 'results-delete-dialog-desktop');
  await confirm.getByRole('button', { name: 'Delete Result' }).click();
  await shown(toast(page, 'Assessment result deleted successfully'));
  await shown(page.getByText('No results found'));
  const gone = await api(file.url, 'GET', `/api/admin/results/${failer._id}`, { token });
  expect(gone.status).toBe(404);
});

test('when item analysis is opened from the results, then it shows facility per question, section means and the distribution', async () => {
  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const) {
    const page = await open('/admin/results', viewport);
    await page.getByRole('link', { name: 'Item Analysis' }).click();
    await page.waitForURL('**/admin/results/analysis');
    await shown(page.getByRole('heading', { level: 1, name: 'Item Analysis' }));
    const table = page.getByRole('table', { name: 'Facility per question' });
    await shown(table);
    expect(await table.locator('tbody tr').count()).toBe(questions.length);
    await shown(page.getByRole('region', { name: 'Section Means' }).getByRole('listitem').first());
    const histogram = page.getByRole('list', { name: 'Distribution of percentages' });
    expect(await histogram.getByRole('listitem').count()).toBe(10);
    await expectAccessible(page, `item analysis at ${width} width`);
    await shoot(page, `results-analysis-${width}`);
  }
});

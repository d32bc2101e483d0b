/*
 * Assessment Management in a real browser against the product as `make start` runs it, with the
 * assessment it seeds on a first start: read mode, editing a question of each type, sections and
 * questions added and removed, a downloadable file uploaded and removed, a save with notes that shows
 * up as the Current version, Cancel discarding an edit, rolling back to an earlier version, and a version
 * exported as Moodle XML and imported again. Read mode, edit mode, the history and the import preview each get an
 * accessibility scan.
 *
 * One product serves the file; each test reads the version it starts from instead of assuming one,
 * so the tests do not depend on each other's order. With SCREENSHOTS=1 it also saves the screen's
 * pictures to docs/screenshots (assessments-*-desktop.png and -mobile.png).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import {
  DESKTOP,
  MOBILE,
  ROOT,
  api,
  expectAccessible,
  saveAssessmentChanges,
  saveScreenshot,
  shown,
  productForFile,
} from './support';
import { openSignedIn } from './steps';

jest.setTimeout(180_000);

interface SavedAssessment {
  version: number;
  title: string;
  changeNotes?: string;
  sections: { id: number; title: string }[];
  questions: {
    id: string;
    section: number;
    type: string;
    question: string;
    correctAnswer?: string;
    options?: { id: string; text: string }[];
    fileInstructions?: string;
    downloadableFile?: { originalName: string; filename: string } | null;
  }[];
  translations?: Record<string, { questions?: Record<string, { question?: string }> }>;
}

const file = productForFile();
let token: string;

beforeAll(async () => {
  token = await file.superToken();
});

const current = async () =>
  (await api<{ assessment: SavedAssessment }>(file.url, 'GET', '/api/assessment', { token })).body.assessment;

/** Opens the screen signed in (by token, so no welcome toast covers it) and waits for read mode. */
async function openAssessments(viewport = DESKTOP): Promise<Page> {
  const page = await file.page(viewport);
  await openSignedIn(page, token, '/admin/assessments');
  await shown(page.getByRole('button', { name: 'Edit Assessment' }));
  return page;
}

const history = (page: Page) => page.getByRole('region', { name: 'Version History' });
const versionItem = (page: Page, version: number) =>
  history(page)
    .getByRole('listitem')
    .filter({ has: page.getByText(`Version ${version}`, { exact: true }) });

/** The first question editor whose Type is `type`. */
const questionOfType = (page: Page, type: string): Locator =>
  page.locator(`fieldset.question-editor:has(select[name$=".type"] option[value="${type}"]:checked)`).first();

const pdf = (name: string) => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
});

test('when the screen opens, then read mode shows the seeded assessment and its current version, passes axe and downloads a question file under its name', async () => {
  const active = await current();
  const page = await openAssessments();
  await shown(page.getByRole('heading', { name: active.title }));
  await shown(page.getByText(active.questions[0]!.question));
  await shown(versionItem(page, active.version).getByText('Current', { exact: true }));
  expect(await page.getByRole('textbox').count()).toBe(0);
  await expectAccessible(page, 'assessment read mode');

  // The seeded question file downloads under its original name.
  const withFile = active.questions.find((q) => q.downloadableFile)!.downloadableFile!;
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: `Download ${withFile.originalName}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(withFile.originalName);
});

test('when the screen is 360 px wide, then read and edit mode fit the width and pass axe', async () => {
  const page = await openAssessments(MOBILE);
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await expectAccessible(page, 'assessment read mode at 360 px');
  await page.getByRole('button', { name: 'Edit Assessment' }).click();
  await shown(page.getByRole('form', { name: 'Edit assessment' }));
  expect(await overflow()).toBeLessThanOrEqual(0);
  await expectAccessible(page, 'assessment edit mode at 360 px');
});

test('when an admin edits every question type, adds and removes sections, questions and a file, and saves with notes, then the new version is Current', async () => {
  const before = await current();
  const page = await openAssessments();
  await page.getByRole('button', { name: 'Edit Assessment' }).click();
  await shown(page.getByRole('form', { name: 'Edit assessment' }));
  await expectAccessible(page, 'assessment edit mode');

  // Two sections in, one out: one new section is saved.
  await page.getByRole('button', { name: 'Add Section' }).click();
  await page.getByRole('button', { name: 'Add Section' }).click();
  const sectionIds = before.sections.map((s) => s.id);
  const added = Math.max(...sectionIds) + 1;
  await page.getByLabel(`Section ${added} title`).fill('Digital Wellbeing');
  await page.getByRole('button', { name: `Remove Section ${added + 1}` }).click();
  // An empty section: removing it asks only to confirm.
  await page
    .getByRole('dialog', { name: `Remove Section ${added + 1}?` })
    .getByRole('button', { name: 'Remove Section' })
    .click();
  expect(await page.getByLabel(`Section ${added + 1} title`).count()).toBe(0);

  // Two questions in, one out: one new question is saved, in the new section.
  const count = before.questions.length;
  await page.getByRole('button', { name: 'Add Question' }).click();
  await page.getByRole('button', { name: 'Add Question' }).click();
  await page.getByRole('button', { name: `Remove Question ${count + 2}` }).click();
  await page
    .getByRole('dialog', { name: `Remove Question ${count + 2}?` })
    .getByRole('button', { name: 'Remove Question' })
    .click();
  const fresh = page.getByRole('group', { name: `Question ${count + 1}`, exact: true });
  await fresh.getByLabel(`Question ${count + 1} text`).fill('Do you take regular screen breaks?');
  await fresh.getByLabel('Section', { exact: true }).selectOption(String(added));

  // One question of each type.
  const yesNo = questionOfType(page, 'yes_no');
  await yesNo.getByLabel(/text$/).fill('Do you have a quiet place to study?');
  await yesNo.getByLabel('Correct answer').selectOption('no');

  const choice = questionOfType(page, 'multiple_choice');
  const choiceId = await choice.locator('select[name$=".type"]').getAttribute('name');
  await choice.getByRole('button', { name: 'Add Option' }).click();
  const options = choice.getByRole('textbox', { name: /^Option \d+$/ });
  const optionCount = await options.count();
  await options.nth(optionCount - 1).fill('Every evening');
  await choice.getByLabel('Correct answer').selectOption({ label: 'Every evening' });

  const upload = questionOfType(page, 'file_upload');
  await upload.getByLabel('File instructions').fill('Upload a photo of your study timetable.');
  const uploadLegend = (await upload.locator('legend').textContent())!;
  const box = upload.getByLabel('Attach a downloadable file');
  if (!(await box.isChecked())) await box.check();
  const removeExisting = upload.getByRole('button', { name: /^Remove file / });
  if ((await removeExisting.count()) > 0) await removeExisting.click();
  await upload.getByLabel(`Downloadable file for ${uploadLegend}`).setInputFiles(pdf('first-draft.pdf'));
  await shown(upload.getByText('first-draft.pdf'));
  await upload.getByRole('button', { name: `Remove file first-draft.pdf from ${uploadLegend}` }).click();
  await upload.getByLabel(`Downloadable file for ${uploadLegend}`).setInputFiles(pdf('timetable-guide.pdf'));
  await shown(upload.getByText('timetable-guide.pdf'));

  await page.getByLabel('Change notes (optional)').fill('Screen breaks section; clearer study questions');
  await saveAssessmentChanges(page);

  await shown(versionItem(page, before.version + 1).getByText('Current', { exact: true }));
  expect(await versionItem(page, before.version).getByText('Current', { exact: true }).count()).toBe(0);

  const after = await current();
  expect(after.version).toBe(before.version + 1);
  expect(after.changeNotes).toBe('Screen breaks section; clearer study questions');
  expect(after.sections).toHaveLength(before.sections.length + 1);
  expect(after.questions).toHaveLength(count + 1);
  expect(after.questions.at(-1)).toMatchObject({
    question: 'Do you take regular screen breaks?',
    type: 'yes_no',
    correctAnswer: 'yes',
  });
  expect(
    after.questions.some(
      (q) => q.question === 'Do you have a quiet place to study?' && q.correctAnswer === 'no',
    ),
  ).toBe(true);
  const index = Number(/questions\.(\d+)\.type/.exec(choiceId!)![1]);
  const savedChoice = after.questions[index]!;
  expect(savedChoice.options?.find((o) => o.id === savedChoice.correctAnswer)?.text).toBe('Every evening');
  const savedUpload = after.questions.find(
    (q) => q.fileInstructions === 'Upload a photo of your study timetable.',
  );
  expect(savedUpload?.downloadableFile?.originalName).toBe('timetable-guide.pdf');
});

test('when an edit is left through the menu, then it asks first; when it is cancelled, then read mode shows the saved assessment and no version is made', async () => {
  const before = await current();
  const page = await openAssessments();
  await page.getByRole('button', { name: 'Edit Assessment' }).click();
  await page.getByLabel('Title', { exact: true }).fill('A title nobody saved');
  // Leaving through the menu asks first; staying keeps the edit.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
  await ask.getByRole('button', { name: 'Stay on this page' }).click();
  expect(new URL(page.url()).pathname).toBe('/admin/assessments');
  expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('A title nobody saved');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page
    .getByRole('dialog', { name: 'Discard unsaved changes?' })
    .getByRole('button', { name: 'Discard Changes' })
    .click();
  await shown(page.getByRole('heading', { name: before.title }));
  expect(await page.getByText('A title nobody saved').count()).toBe(0);
  expect((await current()).version).toBe(before.version);
});

test('when an earlier version is made current, then it asks first, the history marks it Current and the API serves it', async () => {
  const before = await current();
  // A newer version to roll back from.
  const saved = await api<{ assessment: SavedAssessment }>(file.url, 'PUT', '/api/assessment', {
    token,
    body: {
      ...before,
      title: `${before.title} (trial)`,
      changeNotes: 'Trial wording',
      baseVersion: before.version,
    },
  });
  expect(saved.status).toBe(200);

  const page = await openAssessments();
  await page.getByRole('button', { name: `View version ${before.version}` }).click();
  await shown(page.getByRole('heading', { name: `Version ${before.version} (read-only)` }));
  await expectAccessible(page, 'assessment version history');

  await page.getByRole('button', { name: `Make Current version ${before.version}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Make Version Current' });
  await dialog.getByRole('button', { name: 'Make Current' }).click();
  await shown(versionItem(page, before.version).getByText('Current', { exact: true }));
  await shown(page.getByRole('heading', { name: before.title, exact: true }));
  const after = await current();
  expect(after.version).toBe(before.version);
  expect(after.title).toBe(before.title);
});

test('when an admin exports a version as Moodle XML and imports it with an item left out, then the preview says why, axe passes, and the reviewed questions save as a new version', async () => {
  const before = await current();
  const page = await openAssessments();
  try {
    await page.getByRole('button', { name: `Export version ${before.version}` }).click();
    const exportDialog = page.getByRole('dialog', { name: `Export Version ${before.version}` });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      exportDialog.getByRole('button', { name: 'Moodle XML' }).click(),
    ]);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const exported = Buffer.concat(chunks).toString('utf8');
    await exportDialog.getByRole('button', { name: 'Close' }).click();

    const matching =
      '<question type="matching"><name><text>Tools and uses</text></name><questiontext format="html"><text>Match them.</text></questiontext></question>';
    await page.getByRole('button', { name: 'Import Questions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Questions' });
    await dialog.getByLabel('Question file').setInputFiles({
      name: 'bank.xml',
      mimeType: 'text/xml',
      buffer: Buffer.from(exported.replace('</quiz>', `${matching}</quiz>`)),
    });
    await dialog.getByRole('button', { name: 'Read File' }).click();
    await shown(dialog.getByText('Tools and uses: matching questions are not supported'));
    await expectAccessible(page, 'import preview');
    await dialog.getByRole('button', { name: `Import ${before.questions.length} questions` }).click();

    await shown(page.getByText('Imported from bank.xml', { exact: false }));
    await saveAssessmentChanges(page);
    const after = await current();
    expect(after.version).toBeGreaterThan(before.version);
    const answerText = (q: SavedAssessment['questions'][number]) =>
      q.options?.find((o) => o.id === q.correctAnswer)?.text ?? q.correctAnswer;
    const summary = (a: SavedAssessment) =>
      a.questions.map((q) => [q.id, q.type, q.question, answerText(q), q.downloadableFile?.originalName]);
    expect(summary(after)).toEqual(summary(before));
    expect(after.sections.map((s) => s.title)).toEqual(before.sections.map((s) => s.title));
    // The seeded Spanish travels as Moodle's multi-language content and comes back.
    const spanish = (a: SavedAssessment) =>
      a.questions.map((q) => a.translations?.es?.questions?.[q.id]?.question);
    expect(spanish(before).filter(Boolean).length).toBeGreaterThan(0);
    expect(spanish(after)).toEqual(spanish(before));
  } finally {
    // The files after this one read the seeded version, its translations included.
    await api(file.url, 'POST', `/api/assessment/versions/${before.version}/activate`, { token });
  }
});

// Window-sized pictures: the whole page of a long assessment is many screens tall.
const shootIfAsked = process.env.SCREENSHOTS === '1' ? test : test.skip;

shootIfAsked.each([
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
] as const)(
  'when the assessment screens are shown at %s width, then each is saved',
  async (width, viewport) => {
    const out = path.join(ROOT, 'docs/screenshots');
    mkdirSync(out, { recursive: true });
    const shoot = (page: Page, name: string) =>
      page.screenshot({
        path: path.join(out, `${name}-${width}.png`),
        fullPage: false,
        animations: 'disabled',
      });
    const page = await openAssessments(viewport);
    await shoot(page, 'assessments-read');
    await page.getByRole('button', { name: 'Edit Assessment' }).click();
    await shown(page.getByRole('form', { name: 'Edit assessment' }));
    await shoot(page, 'assessments-edit');
    await questionOfType(page, 'multiple_choice').scrollIntoViewIfNeeded();
    await shoot(page, 'assessments-edit-question');
    await page.getByRole('button', { name: 'Cancel' }).click();
    // An earlier version, opened read-only, next to the panel that lists it.
    const makeCurrent = history(page)
      .getByRole('button', { name: /^Make Current version \d+$/ })
      .first();
    const older = /\d+/.exec((await makeCurrent.getAttribute('aria-label')) ?? '')?.[0];
    if (older) {
      await page.getByRole('button', { name: `View version ${older}` }).click();
      await shown(page.getByRole('heading', { name: `Version ${older} (read-only)` }));
    }
    await history(page).scrollIntoViewIfNeeded();
    await shoot(page, 'assessments-history');
  },
);

test('when an admin sets a question bank and shuffling, then the editor says what each does, refuses a draw beyond the section, and the saved version carries them', async () => {
  const page = await openAssessments();
  await page.getByRole('button', { name: 'Edit Assessment' }).click();
  const order = page.getByRole('region', { name: 'Question Order' });
  await order.getByLabel('Shuffle questions within each section').check();
  await order.getByLabel('Shuffle multiple-choice options').check();
  const sections = page.getByRole('region', { name: 'Sections' });
  const draw = sections.getByLabel('Questions per student').first();
  const count = (await current()).questions.filter((q) => q.section === 1).length;
  await draw.fill(String(count + 1));
  await shown(sections.getByText(`At most ${count} (the questions in this section)`));
  await draw.fill('2');
  await shown(
    sections.getByText(`Each student gets 2 of these ${count} questions, drawn at random when they start.`),
  );
  await expectAccessible(page, 'assessment editor, question order');
  await order.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'assessment-question-order', 'desktop');
  await draw.evaluate((field) => field.scrollIntoView({ block: 'center' }));
  await saveScreenshot(page, 'assessment-question-bank', 'desktop');
  await page.getByLabel('Change notes (optional)').fill('Question bank for section 1');
  await saveAssessmentChanges(page);
  const saved = (
    await api<{ assessment: SavedAssessment & Record<string, unknown> }>(file.url, 'GET', '/api/assessment', {
      token,
    })
  ).body.assessment;
  expect(saved).toMatchObject({ shuffleQuestions: true, shuffleOptions: true });
  expect(saved.sections[0]).toMatchObject({ draw: 2 });
});

test('when the English of a translated question changes, then the editor marks its translations English changed — review, counts them, and asks before saving', async () => {
  const before = await current();
  const [first] = before.questions;
  // What earlier saves on this product left to review (files before this one reword questions and titles).
  const earlier =
    (before as SavedAssessment & { outdatedTranslations?: Record<string, string[][]> }).outdatedTranslations
      ?.es ?? [];
  // Those and the reworded question (which an earlier save may have left to review already), each once.
  const expected = [
    ...new Map(
      [...earlier, ['questions', first!.id, 'question']].map((path) => [path.join('/'), path] as const),
    ).values(),
  ];
  const toReview = expected.length;
  // The English of the first question changes through the API; its translations stay as they were written.
  const changed = await api<{
    assessment: SavedAssessment & { outdatedTranslations: Record<string, string[][]> };
  }>(file.url, 'PUT', '/api/assessment', {
    token,
    body: {
      ...before,
      baseVersion: before.version,
      questions: before.questions.map((q) =>
        q === first ? { ...q, question: `${q.question} (revised)` } : q,
      ),
      changeNotes: 'Reworded the first question',
    },
  });
  expect(changed.body.assessment.outdatedTranslations.es).toEqual(expect.arrayContaining(expected));
  expect(changed.body.assessment.outdatedTranslations.es).toHaveLength(toReview);

  for (const [viewport, width] of [
    [DESKTOP, 'desktop'],
    [MOBILE, 'mobile'],
  ] as const) {
    const page = await openAssessments(viewport);
    await page.getByRole('button', { name: 'Edit Assessment' }).click();
    const status = page.getByRole('list', { name: 'Translation status' });
    await shown(
      status.getByText(new RegExp(`^Spanish: .*\\b${toReview}\\b.* to review \\(English changed\\)$`)),
    );
    await page
      .getByRole('group', { name: 'Content language' })
      .getByRole('button', { name: 'Español' })
      .click();
    const marker = page.getByText('English changed — review').first();
    await shown(marker);
    await marker.scrollIntoViewIfNeeded();
    await expectAccessible(page, `translations to review at ${viewport.width} px`);
    await saveScreenshot(page, 'assessments-translation-review', width);

    await page.getByRole('button', { name: 'Save Changes' }).click();
    const ask = page.getByRole('dialog', { name: 'Save with translations to review?' });
    await shown(
      ask.getByText(new RegExp(`written for English text that has changed since \\(Spanish ${toReview}, `)),
    );
    await expectAccessible(page, `the question before saving at ${viewport.width} px`);
    await saveScreenshot(page, 'assessments-translation-review-save', width, true);
    await ask.getByRole('button', { name: 'Review them' }).click();
  }
  expect((await current()).version).toBe(changed.body.assessment.version);
});

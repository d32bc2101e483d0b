/*
 * The student flow in Chromium against the product as `make start` runs it: an admin invites a student
 * through the API, the student opens the link, takes a short assessment (saved through the admin API),
 * and sees the result; at desktop and phone width, with the gates between sections, a reload in the
 * middle, a lost connection, a failed attempt and its retake, an invalid link, and a one-minute
 * assessment that runs out and submits by itself. Every state gets an accessibility scan. With
 * SCREENSHOTS=1 it also saves the pictures to docs/screenshots (student-*-desktop.png and -mobile.png).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  assessmentInput,
  fileUploadQuestion,
  multipleChoiceQuestion,
  practiceQuestion,
  yesNoQuestion,
} from '@readiness/testing/fixtures';
import {
  DESKTOP,
  MOBILE,
  ROOT,
  SUPER,
  animationsSettled,
  api,
  atPath,
  expectAccessible,
  overflowing,
  resultShown,
  saveScreenshot,
  shown,
  signIn,
  productForFile,
  submitAssessment,
  toast,
} from './support';
import { inviteStudent, someone } from './steps';

jest.setTimeout(240_000);

const file = productForFile();
let adminToken: string;

const OUT = path.join(ROOT, 'docs/screenshots');
const screenshots = process.env.SCREENSHOTS === '1';
/** `animations: 'allow'` keeps toasts: fast-forwarding their timers would close them before the picture. */
const shoot = async (
  page: Page,
  name: string,
  viewport: typeof DESKTOP,
  animations: 'disabled' | 'allow' = 'disabled',
) => {
  if (!screenshots) return;
  // From the top, so that the sticky test header stands where a reader expects it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({
    path: path.join(OUT, `student-${name}-${viewport === MOBILE ? 'mobile' : 'desktop'}.png`),
    fullPage: viewport === MOBILE,
    animations,
  });
};

const TITLE = 'Readiness Check';

/**
 * A short assessment: two sections, three required questions and an optional one, which the tests leave
 * unanswered: skipped, it counts in neither score nor total, so the three required points are the whole total.
 */
function assessment(timeLimit: number) {
  return assessmentInput({
    title: TITLE,
    description: 'A short check of how ready you are to learn online.',
    timeLimit,
    sections: [
      { id: 1, title: 'Technology', description: 'Your computer and connection.' },
      { id: 2, title: 'Study Habits', description: 'How you plan your week.' },
    ],
    questions: [
      yesNoQuestion({ question: 'Do you have a computer at home?' }),
      multipleChoiceQuestion({
        question: 'How often can you go online?',
        section: 1,
        points: 1,
        correctAnswer: 'q2o1',
        options: [
          { id: 'q2o1', text: 'Every day' },
          // Long enough to wrap on a phone: its radio circle must keep its size.
          {
            id: 'q2o2',
            text: 'Once a month, from the public library or a friend’s computer when I can get there',
          },
        ],
      }),
      fileUploadQuestion({
        question: 'Upload your weekly study plan',
        points: 1,
        required: true,
        fileInstructions: 'A PDF or a photo of your plan.',
      }),
      yesNoQuestion({
        id: 'q4',
        question: 'Do you study late at night?',
        section: 2,
        required: false,
        correctAnswer: 'no',
      }),
    ],
  });
}

/** Saves `body` over the active version as the super admin. */
async function saveOverCurrent(body: Record<string, unknown>): Promise<void> {
  const current = await api<{ assessment: { version: number } }>(file.url, 'GET', '/api/assessment', {
    token: adminToken,
  });
  const saved = await api(file.url, 'PUT', '/api/assessment', {
    token: adminToken,
    body: { ...body, baseVersion: current.body.assessment.version },
  });
  expect(saved.status).toBe(200);
}

async function saveAssessment(timeLimit: number): Promise<void> {
  await saveOverCurrent({ ...assessment(timeLimit), changeNotes: `Student flow test, ${timeLimit} min` });
}

/** Invites a new student and waits until the student service serves them the expected assessment. */
async function invite(timeLimit = 30): Promise<{ name: string; link: string; token: string }> {
  const { name, email } = someone('Flow');
  const { link, inviteToken: token } = await inviteStudent(file.url, adminToken, { name, email });
  // The student service learns of a saved version through an event: wait until it serves this one.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const seen = await api<{ assessment?: { title: string; timeLimit: number } }>(
      file.url,
      'GET',
      `/api/student/${encodeURIComponent(token)}/assessment`,
    );
    if (seen.body.assessment?.title === TITLE && seen.body.assessment.timeLimit === timeLimit) break;
    if (Date.now() > deadline)
      throw new Error(`The student service never served the assessment: ${seen.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { name, link, token };
}

const open = (viewport = DESKTOP) => file.page(viewport);

const question = (page: Page, text: string) => page.getByRole('group', { name: new RegExp(text) });
const saveStatus = (page: Page, text: string) => page.locator('.test-header__save', { hasText: text });

async function start(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByRole('button', { name: 'Start Assessment' }).click();
  await shown(toast(page, 'Assessment started. Good luck!'));
  await shown(page.getByRole('heading', { level: 2, name: 'Technology' }));
}

/** Opens a section: the tabs on a desktop, the dropdown on a phone. */
async function goToSection(page: Page, viewport: typeof DESKTOP, label: string) {
  if (viewport === MOBILE) await page.getByRole('combobox', { name: 'Section' }).selectOption({ label });
  else await page.getByRole('button', { name: label }).click();
}

const PDF = {
  name: 'study-plan.pdf',
  mimeType: 'application/pdf',
  buffer: Buffer.from('%PDF-1.4\n% plan\n'),
};

/** Answers section 1 as given, uploads the plan in section 2 and submits. */
async function answerAllAndSubmit(page: Page, computer: 'Yes' | 'No', online: string): Promise<void> {
  await question(page, 'Do you have a computer').getByText(computer, { exact: true }).click();
  await question(page, 'How often can you go online').getByText(online).click();
  await page.getByRole('button', { name: 'Next Section' }).click();
  await question(page, 'Upload your weekly study plan')
    .getByLabel(/Choose a file/)
    .setInputFiles(PDF);
  await shown(question(page, 'Upload your weekly study plan').getByText(PDF.name));
  await submitAssessment(page);
}

beforeAll(async () => {
  adminToken = await file.superToken();
  await saveAssessment(30);
  if (screenshots) mkdirSync(OUT, { recursive: true });
}, 180_000);

describe.each([
  ['desktop', DESKTOP],
  ['phone', MOBILE],
] as const)('the whole flow on a %s', (_label, viewport) => {
  test('when a student takes the assessment, then gates, saving and submitting lead to their passed result', async () => {
    const { name, link } = await invite();
    const page = await open(viewport);
    await page.goto(link);
    await shown(page.getByRole('heading', { level: 1, name: 'Distance Education Readiness Assessment' }));
    await shown(page.getByText(name));
    await shown(page.getByText('4 questions across 2 sections'));
    await expectAccessible(page, `welcome page (${viewport.width} px)`);
    await shoot(page, 'welcome', viewport);

    await page.getByRole('button', { name: 'Start Assessment' }).click();
    await shown(toast(page, 'Assessment started. Good luck!'));
    await shown(page.getByRole('heading', { level: 2, name: 'Technology' }));
    expect(await page.getByRole('timer', { name: 'Time remaining' }).textContent()).toMatch(
      /^(30:00|29:\d\d)$/,
    );
    const next = page.getByRole('button', { name: 'Next Section' });
    expect(await next.isDisabled()).toBe(true);
    await expectAccessible(page, `test screen (${viewport.width} px)`);
    // Every radio circle keeps its 18 px, the one of an option whose text wraps included.
    const circles = await page
      .locator('.choice input')
      .evaluateAll((inputs) => inputs.map((i) => i.getBoundingClientRect()).map((r) => [r.width, r.height]));
    expect(circles.length).toBeGreaterThan(0);
    expect(circles.every(([w, h]) => w === 18 && h === 18)).toBe(true);

    await question(page, 'Do you have a computer').getByText('Yes', { exact: true }).click();
    expect(await next.isDisabled()).toBe(true);
    await question(page, 'How often can you go online').getByText('Every day').click();
    await shown(page.getByText('50% complete'));
    await shown(saveStatus(page, 'Saved'));
    await page.locator('.Toastify__toast').first().waitFor({ state: 'detached', timeout: 10_000 });
    await shoot(page, 'test', viewport);
    await next.click();
    const title = page.getByRole('heading', { level: 2, name: 'Study Habits' });
    await shown(title);
    expect(await title.evaluate((el) => el === document.activeElement)).toBe(true);

    const submit = page.getByRole('button', { name: 'Submit Assessment' });
    expect(await submit.isDisabled()).toBe(true);
    await question(page, 'Upload your weekly study plan')
      .getByLabel(/Choose a file/)
      .setInputFiles(PDF);
    await shown(question(page, 'Upload your weekly study plan').getByText(PDF.name));
    await shown(page.getByText('75% complete'));
    await expectAccessible(page, `section 2 with an uploaded file (${viewport.width} px)`);
    await shoot(page, 'test-upload', viewport);
    // Going back is always free, and the answers are still there.
    await page.getByRole('button', { name: 'Previous Section' }).click();
    await shown(page.getByRole('heading', { level: 2, name: 'Technology' }));
    expect(await question(page, 'Do you have a computer').getByLabel('Yes').isChecked()).toBe(true);
    await goToSection(page, viewport, 'Section 2: Study Habits');
    // One optional question is left: the summary says so before anything is sent.
    await submit.click();
    const summary = page.getByRole('dialog', { name: 'Submit your assessment?' });
    await shown(summary.getByText(/answered; 1 optional question skipped\./));
    await shown(summary.getByRole('button', { name: 'Section 2, question 2' }));
    await expectAccessible(page, `submit summary (${viewport.width} px)`);
    await shoot(page, 'submit-summary', viewport);
    await summary.getByRole('button', { name: 'Submit now' }).click();
    await shown(toast(page, 'Assessment submitted successfully!'));
    await atPath(page, `${link}/complete`);
    await resultShown(page, 'Congratulations!');
    await shown(page.getByText('100%'));
    await shown(page.getByText('3 / 3 points'));
    await shown(page.locator('.result__facts dd').getByText('Attempt #1', { exact: true }));
    await shown(page.getByText('Required: 70% to pass'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    await expectAccessible(page, `passed result (${viewport.width} px)`);
    await page.locator('.Toastify__toast').first().waitFor({ state: 'detached', timeout: 10_000 });
    await shoot(page, 'complete-passed', viewport);

    // Opening the link again after a pass leads straight back to the result.
    await page.goto(link);
    await shown(toast(page, 'Assessment already completed!'));
    await atPath(page, `${link}/complete`);
    await resultShown(page, 'Congratulations!');
  });
});

test('when a student passes on a phone, then the completion page opens at its top, its heading focused and clear of the toasts, and the confetti falls once', async () => {
  const { link } = await invite();
  // Motion as most visitors have it, so that the confetti falls.
  const context = file.closeAfterTest(await file.browser.newContext({ baseURL: file.url, viewport: MOBILE }));
  const page = await context.newPage();
  await start(page, link);
  await answerAllAndSubmit(page, 'Yes', 'Every day');
  await atPath(page, `${link}/complete`);
  const heading = page.getByRole('heading', { level: 1, name: 'Congratulations!' });
  await resultShown(page, 'Congratulations!');
  await shown(toast(page, 'Assessment submitted successfully!'));
  // The Submit button was at the bottom of a long page: the result opens at the top all the same.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  expect(await heading.evaluate((el) => el === document.activeElement)).toBe(true);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const covering = await heading.evaluate((h) => {
    const k = h.getBoundingClientRect();
    return Array.from(document.querySelectorAll('.Toastify__toast'), (t) => t.getBoundingClientRect())
      .filter((t) => t.top < k.bottom && k.top < t.bottom)
      .map((t) => `a toast from ${Math.round(t.top)} to ${Math.round(t.bottom)} px covers the heading`);
  });
  expect(covering).toEqual([]);
  expect(await page.getByTestId('confetti').count()).toBe(1);
  await shoot(page, 'complete-toast', MOBILE, 'allow');

  // Opened again, the result is there without a second celebration.
  await page.reload();
  await resultShown(page, 'Congratulations!');
  expect(await page.getByTestId('confetti').count()).toBe(0);
});

/**
 * Every toast on screen, against what a student must always see: the countdown, the save state and the
 * section navigation (tabs on a desktop, the dropdown on a phone). Answers the overlaps found.
 */
async function toastsCovering(page: Page): Promise<string[]> {
  await animationsSettled(page);
  // A scroll is followed on its next frames, as the student sees it.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(() => {
    const kept = {
      timer: document.querySelector('[role="timer"]'),
      'save state': document.querySelector('.test-header__save'),
      'section navigation': document.querySelector('nav[aria-label="Sections"]'),
    };
    const toasts = Array.from(document.querySelectorAll('.Toastify__toast'), (t) =>
      t.getBoundingClientRect(),
    );
    const found: string[] = [];
    for (const [name, element] of Object.entries(kept)) {
      const k = element?.getBoundingClientRect();
      if (!k || k.bottom <= 0 || k.top >= window.innerHeight) continue;
      for (const t of toasts) {
        if (t.left < k.right && k.left < t.right && t.top < k.bottom && k.top < t.bottom) {
          found.push(`a toast at ${Math.round(t.left)},${Math.round(t.top)} covers the ${name}`);
        }
      }
    }
    return found;
  });
}

/**
 * No toast covers the kept places once the page has followed its last change: the clearance is measured again on
 * the frames after a scroll, a resize or a layout change, which a busy machine may deliver a moment late. A toast
 * that stays over the header fails after two seconds.
 */
async function expectNoToastCovering(page: Page): Promise<void> {
  const deadline = Date.now() + 2_000;
  let covering = await toastsCovering(page);
  while (covering.length > 0 && Date.now() < deadline) {
    await page.waitForTimeout(100);
    covering = await toastsCovering(page);
  }
  expect(covering).toEqual([]);
}

describe.each([
  ['desktop', DESKTOP],
  ['phone', MOBILE],
] as const)('toasts on a %s', (_label, viewport) => {
  test('when toasts show at start, offline and on a failed submit, then none covers the timer, the save state or the section navigation', async () => {
    const { link } = await invite();
    const page = await open(viewport);
    await start(page, link);
    expect(await page.locator('.Toastify__toast').count()).toBeGreaterThan(0);
    await expectNoToastCovering(page);

    await page.context().setOffline(true);
    await question(page, 'Do you have a computer').getByText('Yes', { exact: true }).click();
    await question(page, 'How often can you go online').getByText('Every day').click();
    await shown(saveStatus(page, 'Offline — answers kept on this device'));
    await expectNoToastCovering(page);
    await page.context().setOffline(false);
    await shown(saveStatus(page, 'Saved'));

    await page.getByRole('button', { name: 'Next Section' }).click();
    await question(page, 'Upload your weekly study plan')
      .getByLabel(/Choose a file/)
      .setInputFiles(PDF);
    await shown(question(page, 'Upload your weekly study plan').getByText(PDF.name));
    await page.route('**/submit', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"message":"Service unavailable"}',
      }),
    );
    await submitAssessment(page);
    await shown(page.locator('.Toastify__toast--error'));
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectNoToastCovering(page);
    await shoot(page, 'test-toasts', viewport, 'allow');
    // Scrolled down, the header stays in view and the toasts stay below it.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expectNoToastCovering(page);
  });
});

test('when the page is reloaded in the middle, then the test resumes with the answers and the time really left', async () => {
  const { link } = await invite();
  const page = await open();
  await start(page, link);
  await question(page, 'Do you have a computer').getByText('No', { exact: true }).click();
  await shown(saveStatus(page, 'Saved'));
  await page.waitForTimeout(2000);
  const before = await page.getByRole('timer').textContent();
  await page.reload();
  // No welcome page in between: the attempt is running.
  await shown(page.getByRole('heading', { level: 2, name: 'Technology' }));
  expect(await page.getByRole('button', { name: 'Start Assessment' }).count()).toBe(0);
  expect(await question(page, 'Do you have a computer').getByLabel('No').isChecked()).toBe(true);
  const after = await page.getByRole('timer').textContent();
  const seconds = (text: string | null) => {
    const [m, s] = (text ?? '').split(':').map(Number);
    return m! * 60 + s!;
  };
  expect(seconds(after)).toBeLessThanOrEqual(seconds(before));
  expect(seconds(after)).toBeGreaterThan(29 * 60 - 30);
});

test('when the connection drops while answering, then the answers stay on the device and reach the server when it returns', async () => {
  const { link, token } = await invite();
  const page = await open();
  await start(page, link);
  await page.context().setOffline(true);
  await question(page, 'Do you have a computer').getByText('Yes', { exact: true }).click();
  await question(page, 'How often can you go online').getByText('Once a month').click();
  await shown(saveStatus(page, 'Offline — answers kept on this device'));
  await expectAccessible(page, 'test screen offline');
  await shoot(page, 'test-offline', DESKTOP);
  await page.context().setOffline(false);
  await shown(saveStatus(page, 'Saved'));
  const held = await api<{ attempt: { answers: { questionId: string; answer: string }[] } }>(
    file.url,
    'GET',
    `/api/student/${encodeURIComponent(token)}/assessment`,
  );
  expect(held.body.attempt.answers).toEqual(
    expect.arrayContaining([
      { questionId: 'q1', answer: 'yes' },
      { questionId: 'q2', answer: 'q2o2' },
    ]),
  );
});

test('when a student fails, then they can retake and the welcome page shows the Previous Attempt', async () => {
  const { link } = await invite();
  const page = await open();
  await start(page, link);
  await answerAllAndSubmit(page, 'No', 'Once a month');
  await resultShown(page, 'Assessment Complete');
  await shown(page.getByText('You did not meet the passing requirements this time'));
  await shown(page.getByText('33.3%'));
  await expectAccessible(page, 'failed result');
  await page.locator('.Toastify__toast').first().waitFor({ state: 'detached', timeout: 10_000 });
  await shoot(page, 'complete-failed', DESKTOP);

  await page.getByRole('link', { name: 'Retake Assessment' }).click();
  await atPath(page, link);
  const box = page.getByRole('region', { name: 'Previous Attempt' });
  await shown(box.getByText('33.3%'));
  await shown(box.getByText('Failed'));
  await shown(box.getByText('You can retake this assessment to improve your score.'));
  await expectAccessible(page, 'welcome page after a failed attempt');
  await shoot(page, 'welcome-retake', DESKTOP);
  await page.getByRole('button', { name: 'Start Assessment' }).click();
  await shown(page.getByRole('heading', { level: 2, name: 'Technology' }));
  // A new attempt starts with nothing answered.
  expect(await question(page, 'Do you have a computer').getByLabel('No').isChecked()).toBe(false);
});

test('when an invitation link is unknown, then a page of its own says so at the link, and the visitor is not sent to /', async () => {
  const page = await open(MOBILE);
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });
  await page.goto('/assessment/no-such-invitation-token-at-all');
  await shown(page.getByRole('heading', { level: 1, name: 'Invalid or expired invitation link' }));
  await shown(
    page.getByText('Ask the institution or administrator who sent you the invitation for a new link.'),
  );
  await atPath(page, '/assessment/no-such-invitation-token-at-all');
  expect(visited).not.toContain('/');
  expect(visited).not.toContain('/admin/login');
  await expectAccessible(page, 'an invalid invitation link');
  await saveScreenshot(page, 'student-invalid-link', 'mobile');
  await page.setViewportSize(DESKTOP);
  await shown(page.getByRole('heading', { level: 1, name: 'Invalid or expired invitation link' }));
  await saveScreenshot(page, 'student-invalid-link', 'desktop');
});

test('when the result is still being calculated, then the completion page waits calmly and shows it once recorded', async () => {
  const { link } = await invite();
  const page = await open(MOBILE);
  // The results answer empty at first, as while a submission is being scored.
  let scored = false;
  await page
    .context()
    .route('**/api/student/*/results', (route) =>
      scored ? route.continue() : route.fulfill({ json: { results: [] } }),
    );
  await start(page, link);
  await answerAllAndSubmit(page, 'Yes', 'Every day');
  await resultShown(page, 'Congratulations!');
  // Opened afresh in another tab (no result handed over), the completion page asks the server, which
  // has nothing yet.
  const later = await page.context().newPage();
  await later.goto(`${link}/complete`);
  await shown(later.getByRole('heading', { level: 1, name: 'Calculating your result…' }));
  await expectAccessible(later, 'result being calculated');
  await shoot(later, 'complete-calculating', MOBILE);
  scored = true;
  await shown(later.getByRole('heading', { level: 1, name: 'Congratulations!' }));
});

/** A countdown's mm:ss (or h:mm:ss) in seconds. */
const secondsIn = (text: string | null) =>
  (text ?? '')
    .trim()
    .split(':')
    .map(Number)
    .reduce((total, part) => total * 60 + part, 0);

test("when an admin adds time on the Live screen, then the student's countdown moves within seconds; when the admin ends another attempt, then that student lands on their result", async () => {
  const extended = await invite();
  const ended = await invite();
  const first = await open();
  await start(first, extended.link);
  const second = await open(MOBILE);
  await start(second, ended.link);
  // Two of three required answers right and saved: 2 of 3 points when the attempt is ended.
  await question(second, 'Do you have a computer').getByText('Yes', { exact: true }).click();
  await question(second, 'How often can you go online').getByText('Every day').click();
  await shown(saveStatus(second, 'Saved'));

  const admin = await open();
  await signIn(admin, SUPER.email, SUPER.password);
  await admin.getByRole('link', { name: 'Live' }).click();
  await atPath(admin, '/admin/live');
  await shown(admin.getByRole('heading', { level: 1, name: 'Live attempts' }));
  await shown(admin.getByText(extended.name));
  await shown(admin.getByText(ended.name));
  await expectAccessible(admin, 'live attempts');
  await saveScreenshot(admin, 'live-attempts', 'desktop');

  const before = secondsIn(await first.getByRole('timer').textContent());
  await admin.getByRole('button', { name: `Add time for ${extended.name}` }).click();
  const dialog = admin.getByRole('dialog', { name: 'Add time' });
  await dialog.getByLabel('Minutes to add').fill('15');
  await expectAccessible(admin, 'add time dialog');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  // Announced to the student's page within seconds, without a reload (looked for from the click on, beside the
  // admin's own toast: a toast looked for only after another may have come and gone on a busy machine).
  await Promise.all([
    shown(toast(admin, `Added 15 minutes for ${extended.name}`)),
    shown(toast(first, 'You have been given 15 more minutes.'), 10_000),
  ]);
  const after = secondsIn(await first.getByRole('timer').textContent());
  expect(after).toBeGreaterThan(before + 14 * 60);
  expect(after).toBeLessThanOrEqual(before + 15 * 60);

  await admin.getByRole('button', { name: `End attempt for ${ended.name}` }).click();
  const confirm = admin.getByRole('dialog', { name: 'End attempt' });
  await shown(confirm.getByText('cannot be undone'));
  await confirm.getByRole('button', { name: 'End attempt' }).click();
  await Promise.all([
    shown(toast(admin, `Attempt ended for ${ended.name}; it is scored from the last saved answers`)),
    shown(toast(second, 'Your attempt was ended. It is being scored from your saved answers.'), 10_000),
  ]);
  await atPath(second, `${ended.link}/complete`);
  await resultShown(second, 'Assessment Complete');
  await shown(second.getByText('2 / 3 points'));
  // The ended attempt leaves the list at the screen's next poll; the extended one stays, with its new time.
  await admin.getByText(ended.name).waitFor({ state: 'detached', timeout: 10_000 });
  await shown(admin.getByText(extended.name));

  // The screen at phone width.
  const phone = await open(MOBILE);
  await signIn(phone, SUPER.email, SUPER.password);
  await phone.goto('/admin/live');
  await shown(phone.getByText(extended.name));
  await expectAccessible(phone, 'live attempts, phone');
  await saveScreenshot(phone, 'live-attempts', 'mobile');

  // The extended student switches to another tab for a while, comes back and submits: the result's timeline
  // shows the tab switch and the extension, as facts.
  await hideFor(first, 2_000);
  await answerAllAndSubmit(first, 'Yes', 'Every day');
  await resultShown(first, 'Congratulations!');
  const found = await api<{ results: Array<{ _id: string }> }>(
    file.url,
    'GET',
    `/api/admin/results?search=${encodeURIComponent(extended.name)}`,
    { token: adminToken },
  );
  await admin.goto(`/admin/results/${found.body.results[0]!._id}`);
  const timeline = admin.getByRole('region', { name: 'Timeline' });
  await shown(
    timeline.getByText('What happened during this attempt. These are facts, not part of the score.'),
  );
  await shown(timeline.getByText(/^Left the page for [2-9] s$/));
  await shown(timeline.getByText('15 minutes added by you'));
  await shown(timeline.getByText('Reached section 2: Study Habits'));
  await shown(timeline.getByText('Submitted'));
  await expectAccessible(admin, 'result timeline');
  await timeline.scrollIntoViewIfNeeded();
  await saveScreenshot(admin, 'result-timeline', 'desktop');
});

test('when an admin limits admission on the Live screen, then the waiting room panel shows the line it forms, and Automatic lets it in, at desktop and phone width', async () => {
  const admin = await open();
  await signIn(admin, SUPER.email, SUPER.password);
  const setCeiling = (ceilingPerMinute: number | null) =>
    api(file.url, 'PUT', '/api/admin/students/waiting-room', {
      token: adminToken,
      body: { ceilingPerMinute },
    });
  try {
    await admin.goto('/admin/live');
    const panel = admin.getByRole('region', { name: 'Waiting room' });
    await shown(panel.getByText('Nobody is waiting: every student starts at once.'));
    await shown(panel.getByText("Automatic: the product's measured capacity"));
    // The browser lane's product admits by an admin's limit only (WAITING_ROOM=limit-only): no rate to show.
    await shown(panel.getByText('Admitting every student at once: no limit is set'));
    await expectAccessible(admin, 'waiting room');

    await panel.getByLabel('Most starts a minute').fill('30');
    await panel.getByRole('button', { name: 'Save' }).click();
    await shown(toast(admin, 'Admission limit saved'));
    await shown(panel.getByText('Limited by an admin: at most 30 starts a minute'));

    // A line of the product's own: one start a minute, and three students asking to start at once.
    expect((await setCeiling(1)).status).toBe(200);
    const arrivals = await Promise.all([invite(), invite(), invite()]);
    const starts = await Promise.all(
      arrivals.map(({ token }) => api(file.url, 'POST', `/api/student/${encodeURIComponent(token)}/start`)),
    );
    expect(starts.filter((s) => s.status === 202).length).toBeGreaterThanOrEqual(2);
    await shown(panel.getByText(/^[23] students$/), 10_000);
    await shown(panel.getByText('Limited by an admin: at most 1 start a minute'));
    await expectAccessible(admin, 'waiting room, a line');
    if (screenshots) {
      await shown(panel.getByText(/^[1-9]\d* s$/), 10_000);
      await panel.screenshot({ path: path.join(OUT, 'live-waiting-room.png'), animations: 'disabled' });
    }

    const phone = await open(MOBILE);
    await signIn(phone, SUPER.email, SUPER.password);
    await phone.goto('/admin/live');
    const small = phone.getByRole('region', { name: 'Waiting room' });
    await shown(small.getByText(/^[23] students$/));
    await expectAccessible(phone, 'waiting room, phone');
    expect(await overflowing(phone)).toEqual([]);

    await small.getByRole('button', { name: 'Automatic' }).click();
    await shown(toast(phone, 'Admission is automatic again'));
    await shown(small.getByText("Automatic: the product's measured capacity"));
    // The line is let in, and the other screen follows at its next poll.
    await shown(small.getByText('Nobody is waiting: every student starts at once.'), 10_000);
    await shown(panel.getByText("Automatic: the product's measured capacity"), 10_000);
  } finally {
    expect((await setCeiling(null)).status).toBe(200);
  }
});

/**
 * The page hidden (the student switched to another tab or application) for `ms`, then shown again: what the
 * browser tells a page when its tab is switched away from and back.
 */
async function hideFor(page: Page, ms: number) {
  const visibility = (state: 'hidden' | 'visible') =>
    page.evaluate((to) => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => to });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => to === 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    }, state);
  await visibility('hidden');
  await new Promise((r) => setTimeout(r, ms));
  await visibility('visible');
}

test('when a version draws and shuffles, then two students see their own questions and order, each the same after a reload', async () => {
  const bank = Array.from({ length: 8 }, (_, i) => ({
    id: `b${i + 1}`,
    type: 'yes_no',
    question: `Bank question number ${i + 1}?`,
    section: 1,
    points: 1,
    required: true,
    correctAnswer: 'yes',
    options: [],
  }));
  const choice = {
    id: 'mc',
    type: 'multiple_choice',
    question: 'Which device do you use most?',
    section: 2,
    points: 1,
    required: true,
    correctAnswer: 'laptop',
    options: ['Laptop', 'Desktop', 'Tablet', 'Phone', 'Library computer'].map((text) => ({
      id: text.toLowerCase().replace(' ', '-'),
      text,
    })),
  };
  await saveOverCurrent({
    ...assessment(31),
    sections: [
      { id: 1, title: 'Technology', description: 'Five of eight, in your own order.', draw: 5 },
      { id: 2, title: 'Study Habits', description: '' },
    ],
    questions: [...bank, choice],
    shuffleQuestions: true,
    shuffleOptions: true,
    practiceQuestion: practiceQuestion(),
    changeNotes: 'Question bank',
  });

  /** Section 1's questions and section 2's options, in the order this student's page shows them. */
  const shownOrder = async (page: Page) => {
    await goToSection(page, DESKTOP, 'Section 1: Technology');
    const questions = await page
      .locator('[data-question-id]')
      .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-question-id')));
    await goToSection(page, DESKTOP, 'Section 2: Study Habits');
    const options = await question(page, 'Which device')
      .getByRole('radio')
      .evaluateAll((radios) => radios.map((r) => (r as HTMLInputElement).value));
    return { questions, options };
  };

  const orders = [];
  for (const viewport of [DESKTOP, DESKTOP]) {
    const student = await invite(31);
    const page = await open(viewport);
    await page.goto(student.link);
    await shown(page.getByText('6 questions across 2 sections'));
    if (orders.length === 0) {
      // The practice question before the clock: tried, checked, never sent.
      const practice = page.getByRole('region', { name: 'Try a practice question' });
      await practice.getByText('A printer', { exact: true }).click();
      await practice.getByRole('button', { name: 'Check answer' }).click();
      await shown(practice.getByText('Not quite. The answer is: Firefox.'));
      await practice.getByRole('group').getByText('Firefox', { exact: true }).click();
      await practice.getByRole('button', { name: 'Check answer' }).click();
      await shown(practice.getByText("That's right."));
      await expectAccessible(page, 'welcome with a practice question');
      await practice.scrollIntoViewIfNeeded();
      await saveScreenshot(page, 'student-practice-question', 'desktop');
    }
    await page.getByRole('button', { name: 'Start Assessment' }).click();
    await shown(page.getByRole('heading', { level: 2, name: 'Technology' }));
    // Section 1's five questions answered, so that section 2 opens.
    const cards = page.locator('[data-question-id]');
    expect(await cards.count()).toBe(5);
    for (let i = 0; i < 5; i++) await cards.nth(i).getByText('Yes', { exact: true }).click();
    await shown(saveStatus(page, 'Saved'));
    const order = await shownOrder(page);
    expect(order.questions).toHaveLength(5);
    expect(order.questions.every((id) => id!.startsWith('b'))).toBe(true);
    expect([...order.options].sort()).toEqual(choice.options.map((o) => o.id).sort());
    // A reload keeps the attempt's own questions and order.
    await page.reload();
    await shown(page.getByRole('heading', { level: 2, name: 'Study Habits' }));
    expect(await shownOrder(page)).toEqual(order);
    orders.push(order);
  }
  // 6,720 ways to give five of eight in order, 120 orders of the options: the two students' tests differ.
  expect(orders[0]).not.toEqual(orders[1]);
});

// Last: it makes the one-minute version the active one.
test('when a one-minute assessment runs out, then it is submitted by itself and the result shows', async () => {
  await saveAssessment(1);
  const { link } = await invite(1);
  const page = await open();
  // The page's clock, not the wall's: the minute passes at once where the page counts it.
  await page.clock.install();
  await start(page, link);
  await question(page, 'Do you have a computer').getByText('Yes', { exact: true }).click();
  await shown(saveStatus(page, 'Saved'));
  await page.clock.fastForward('01:00');
  await toast(page, 'Time is up! Submitting your assessment automatically.').waitFor({ timeout: 20_000 });
  await atPath(page, `${link}/complete`);
  await resultShown(page, 'Assessment Complete');
  await shown(page.getByText('1 / 3 points'));
  await expectAccessible(page, 'result after time ran out');
}, 180_000);

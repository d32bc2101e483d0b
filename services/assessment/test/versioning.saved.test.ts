import { randomUUID } from 'node:crypto';
import { QuestionType, VersionPublication } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { SECTIONS } from '@readiness/testing/fixtures';
import {
  adminToken,
  sampleAssessment,
  samplePracticeQuestion,
  startAssessment,
  type Harness,
} from './harness';

jest.setTimeout(60_000);

let h: Harness;
const adaId = randomUUID();
const ada = adminToken(adaId);
const grace = adminToken();

beforeAll(async () => {
  h = await startAssessment('real');
  await h.announceAdmin(adaId, 'Ada Lovelace');
});
afterAll(() => h?.close());

const versionsOf = async (token = ada) =>
  (
    (await (await h.call('GET', '/api/assessment/versions', { token })).json()) as {
      versions: Array<Record<string, unknown>>;
    }
  ).versions;

test('when no version exists yet, then reading the assessment answers 404 No assessment found', async () => {
  const res = await h.call('GET', '/api/assessment', { token: ada });
  expect(res.status).toBe(404);
  expect(await res.json()).toEqual({ message: 'No assessment found', code: 'not_found' });
});

test('when admins save, then each save is a new active version, listed newest first with counts and the author', async () => {
  const first = await h.call('PUT', '/api/assessment', {
    token: ada,
    body: { ...sampleAssessment(), changeNotes: 'First draft' },
  });
  expect(first.status).toBe(200);
  const v1 = (await (await h.call('GET', '/api/assessment', { token: ada })).json()) as {
    assessment: Record<string, unknown>;
  };
  expect(v1.assessment).toMatchObject({
    version: 1,
    isActive: true,
    title: 'Readiness check',
    timeLimit: 20,
    passingScore: 70,
    changeNotes: 'First draft',
    sections: SECTIONS,
  });
  expect((v1.assessment.questions as unknown[]).length).toBe(3);

  const second = await h.call('PUT', '/api/assessment', {
    token: grace,
    body: { ...sampleAssessment({ title: 'Readiness check, revised' }), baseVersion: 1 },
  });
  expect(second.status).toBe(200);
  const saved = (await second.json()) as { assessment: Record<string, unknown> };
  expect(saved.assessment).toMatchObject({
    version: 2,
    isActive: true,
    title: 'Readiness check, revised',
    changeNotes: '',
  });

  const versions = await versionsOf();
  expect(versions.map((v) => [v.version, v.isActive])).toEqual([
    [2, true],
    [1, false],
  ]);
  expect(versions[1]).toMatchObject({
    changeNotes: 'First draft',
    sectionCount: 2,
    questionCount: 3,
    createdBy: { name: 'Ada Lovelace' },
  });
  expect(typeof versions[1]!.createdAt).toBe('string');
});

test('when an earlier version is activated, then it becomes current unchanged and the later one stays in the history', async () => {
  const res = await h.call('POST', '/api/assessment/versions/1/activate', { token: ada });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { assessment: Record<string, unknown> }).assessment).toMatchObject({
    version: 1,
    isActive: true,
    title: 'Readiness check',
  });
  const current = (await (await h.call('GET', '/api/assessment', { token: ada })).json()) as {
    assessment: Record<string, unknown>;
  };
  expect(current.assessment).toMatchObject({
    version: 1,
    title: 'Readiness check',
    changeNotes: 'First draft',
  });
  expect((await versionsOf()).map((v) => [v.version, v.isActive])).toEqual([
    [2, false],
    [1, true],
  ]);
  const two = await h.call('GET', '/api/assessment/versions/2', { token: ada });
  expect(((await two.json()) as { assessment: Record<string, unknown> }).assessment).toMatchObject({
    version: 2,
    isActive: false,
    title: 'Readiness check, revised',
  });
  expect((await h.call('GET', '/api/assessment/versions/9', { token: ada })).status).toBe(404);
  expect((await h.call('POST', '/api/assessment/versions/9/activate', { token: ada })).status).toBe(404);
});

test('when a save is based on a version that is no longer current, then 409 says someone else saved first and nothing is created', async () => {
  const before = await versionsOf();
  const stale = await h.call('PUT', '/api/assessment', {
    token: grace,
    body: { ...sampleAssessment({ title: 'Overwrite' }), baseVersion: 2 },
  });
  expect(stale.status).toBe(409);
  const body = (await stale.json()) as { message: string; code: string };
  expect(body.code).toBe('stale_version');
  expect(body.message).toMatch(/someone else saved the assessment first/i);
  // The screen's copy carries the loaded version as `version`: that counts as the base too.
  const alsoStale = await h.call('PUT', '/api/assessment', {
    token: grace,
    body: { ...sampleAssessment({ title: 'Overwrite' }), version: 2 },
  });
  expect(alsoStale.status).toBe(409);
  // Naming no base at all would overwrite blindly: refused.
  const blind = await h.call('PUT', '/api/assessment', {
    token: grace,
    body: sampleAssessment({ title: 'Blind' }),
  });
  expect(blind.status).toBe(400);
  expect(((await blind.json()) as { code: string }).code).toBe('base_version_required');
  expect(await versionsOf()).toEqual(before);
});

test('when a version is saved or activated, then the bus carries it whole, answer key included, and says which it was', async () => {
  const events = await eventually(() => (h.published.length >= 3 ? h.published : false), 'three events');
  const [first, second, rollback] = events;
  expect(first).toMatchObject({
    version: 1,
    active: true,
    title: 'Readiness check',
    description: 'Are you ready to study online?',
    timeLimitMinutes: 20,
    passingScore: 70,
    changeNotes: 'First draft',
    createdById: adaId,
    createdByName: 'Ada Lovelace',
    publication: VersionPublication.SAVED,
    sections: SECTIONS,
  });
  expect(first!.versionId).toMatch(/^[0-9a-f-]{36}$/);
  expect(first!.createdAt).toBeDefined();
  expect(
    first!.questions.map((q) => [q.id, q.type, q.correctAnswer, q.points, q.section, q.required]),
  ).toEqual([
    ['q1', QuestionType.YES_NO, 'yes', 1, 1, true],
    ['q2', QuestionType.MULTIPLE_CHOICE, 'b', 2, 2, true],
    ['q3', QuestionType.FILE_UPLOAD, '', 3, 2, false],
  ]);
  expect(first!.questions[1]!.options.map((o) => [o.id, o.text])).toEqual([
    ['a', 'Never'],
    ['b', 'Every day'],
  ]);
  expect(second).toMatchObject({ version: 2, active: true, publication: VersionPublication.SAVED });
  expect(rollback).toMatchObject({
    version: 1,
    active: true,
    versionId: first!.versionId,
    publication: VersionPublication.REACTIVATED,
  });
});

test('when versions change, then the audit log names who did what, newest first', async () => {
  const res = await h.call('GET', '/api/assessment/audit', { token: ada });
  const { entries } = (await res.json()) as {
    entries: Array<{ action: string; actor: { id: string; name: string }; details: Record<string, unknown> }>;
  };
  expect(entries.map((e) => e.action)).toEqual(['version.activated', 'version.saved', 'version.saved']);
  expect(entries[0]).toMatchObject({
    actor: { id: adaId, name: 'Ada Lovelace' },
    details: { version: 1, previous: 2 },
  });
});

test('when a version draws questions and shuffles, then it is saved, served and published so, and a draw beyond a section is refused', async () => {
  const current = async () =>
    (
      (await (await h.call('GET', '/api/assessment', { token: ada })).json()) as {
        assessment: { id: string; version: number; sections: unknown[] } & Record<string, unknown>;
      }
    ).assessment;
  const before = await current();
  const sections = SECTIONS.map((section) => ({ ...section, draw: 1 }));
  // Section 1 has one question: a draw of all of it is no draw (stored as absent); section 2 draws 1 of 2.
  const saved = await h.call('PUT', '/api/assessment', {
    token: ada,
    body: {
      ...sampleAssessment({ sections, shuffleQuestions: true, shuffleOptions: true }),
      baseVersion: before.version,
    },
  });
  expect(saved.status).toBe(200);
  const served = await current();
  expect(served).toMatchObject({ shuffleQuestions: true, shuffleOptions: true });
  expect(served.sections).toEqual([
    { id: 1, title: 'Technology', description: 'Your equipment' },
    { ...SECTIONS[1], draw: 1 },
  ]);
  const event = await eventually(
    () => h.published.find((e) => e.versionId === served.id) ?? false,
    'the published version',
  );
  expect(event).toMatchObject({ shuffleQuestions: true, shuffleOptions: true });
  expect(event.sections.map((s) => s.draw)).toEqual([0, 1]);

  for (const [body, message] of [
    [
      { sections: [sections[0], { ...sections[1], draw: 3 }] },
      'Section 2: each student can be given at most its 2 questions, not 3',
    ],
    [
      { sections: [sections[0], { ...sections[1], draw: -1 }] },
      'Questions per student must be 0 (all) or more',
    ],
    [{ shuffleOptions: 'yes' }, 'shuffleOptions must be true or false'],
  ] as const) {
    const res = await h.call('PUT', '/api/assessment', {
      token: ada,
      body: { ...sampleAssessment(body), baseVersion: served.version },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(message);
  }
  expect((await current()).version).toBe(served.version);

  // Off by default: a save without the settings turns them off again.
  const plain = await h.call('PUT', '/api/assessment', {
    token: ada,
    body: { ...sampleAssessment(), baseVersion: served.version },
  });
  expect(plain.status).toBe(200);
  expect(await current()).toMatchObject({ shuffleQuestions: false, shuffleOptions: false });
});

test('when a version offers a practice question, then it is saved, served and published with its answer, and a broken one is refused', async () => {
  const current = async () =>
    (
      (await (await h.call('GET', '/api/assessment', { token: ada })).json()) as {
        assessment: { id: string; version: number } & Record<string, unknown>;
      }
    ).assessment;
  const practiceQuestion = samplePracticeQuestion;
  const before = await current();
  const saved = await h.call('PUT', '/api/assessment', {
    token: ada,
    body: { ...sampleAssessment({ practiceQuestion }), baseVersion: before.version },
  });
  expect(saved.status).toBe(200);
  const served = await current();
  expect(served.practiceQuestion).toEqual(practiceQuestion);
  const event = await eventually(
    () => h.published.find((e) => e.versionId === served.id) ?? false,
    'the published version',
  );
  expect(event.practiceQuestion).toMatchObject({
    type: QuestionType.MULTIPLE_CHOICE,
    question: 'Which of these is a web browser?',
    correctAnswer: 'p1',
  });
  // Never among the scored questions.
  expect(event.questions.map((q) => q.id)).toEqual(['q1', 'q2', 'q3']);

  for (const [practice, message] of [
    [{ ...practiceQuestion, question: '  ' }, 'Practice question text is required'],
    [
      { ...practiceQuestion, correctAnswer: 'p9' },
      'Practice question: the correct answer must be one of its options',
    ],
    [
      { ...practiceQuestion, options: [practiceQuestion.options[0]] },
      'Practice question: a multiple choice question needs at least 2 options',
    ],
    [
      { type: 'yes_no', question: 'Ready?', options: [], correctAnswer: 'maybe' },
      'Practice question: the correct answer must be yes or no',
    ],
  ] as const) {
    const res = await h.call('PUT', '/api/assessment', {
      token: ada,
      body: { ...sampleAssessment({ practiceQuestion: practice }), baseVersion: served.version },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(message);
  }
  // A yes/no practice question keeps no options; a save without one has none.
  const yesNo = await h.call('PUT', '/api/assessment', {
    token: ada,
    body: {
      ...sampleAssessment({
        practiceQuestion: {
          type: 'yes_no',
          question: 'Ready?',
          options: practiceQuestion.options,
          correctAnswer: 'yes',
        },
      }),
      baseVersion: served.version,
    },
  });
  expect(yesNo.status).toBe(200);
  expect((await current()).practiceQuestion).toEqual({
    type: 'yes_no',
    question: 'Ready?',
    options: [],
    correctAnswer: 'yes',
  });
  const none = await h.call('PUT', '/api/assessment', {
    token: ada,
    body: { ...sampleAssessment(), baseVersion: served.version + 1 },
  });
  expect(none.status).toBe(200);
  expect((await current()).practiceQuestion).toBeNull();
});

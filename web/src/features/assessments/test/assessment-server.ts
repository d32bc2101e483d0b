import { answer, refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { server } from '../../../testing/server';
import type { Assessment, AssessmentContent, SaveBody } from '../api/types';

/*
 * An in-memory stand-in for the assessment service, speaking the calls of SPEC §7 plus version
 * activation, one version whole and the stale-base check: every save is a new active version.
 */
export const store = {
  versions: [] as Assessment[],
  saves: [] as SaveBody[],
  deletedFiles: [] as string[],
};

export const STALE_MESSAGE = 'Someone else saved a newer version of this assessment. Reload to see it.';

const content: AssessmentContent = {
  title: 'Distance Education Readiness',
  description: 'Are you ready to study online?',
  timeLimit: 30,
  passingScore: 70,
  sections: [
    { id: 1, title: 'Technology Access', description: 'Your equipment' },
    { id: 2, title: 'Study Habits', description: '' },
  ],
  questions: [
    {
      id: 'q1',
      type: 'yes_no',
      question: 'Do you have a reliable internet connection?',
      correctAnswer: 'yes',
      points: 1,
      section: 1,
      required: true,
      hasDownloadableFile: false,
    },
    {
      id: 'q2',
      type: 'multiple_choice',
      question: 'How many hours a week can you study?',
      correctAnswer: 'o2',
      points: 2,
      section: 2,
      required: true,
      hasDownloadableFile: false,
      options: [
        { id: 'o1', text: 'Less than 5' },
        { id: 'o2', text: '5 to 10' },
      ],
    },
    {
      id: 'q3',
      type: 'file_upload',
      question: 'Upload your weekly study plan',
      points: 3,
      section: 2,
      required: false,
      fileInstructions: 'Use the template',
      hasDownloadableFile: true,
      downloadableFile: { originalName: 'plan-template.docx', filename: 'f-abc.docx', size: 2048 },
    },
  ],
  shuffleQuestions: false,
  shuffleOptions: false,
  practiceQuestion: null,
  translations: {},
  outdatedTranslations: {},
};

export function seedAssessment(): void {
  store.saves.length = 0;
  store.deletedFiles.length = 0;
  store.versions = [
    {
      ...content,
      id: 'v-1',
      title: 'Readiness (first draft)',
      version: 1,
      isActive: false,
      createdAt: '2025-01-10T09:00:00.000Z',
      createdBy: { name: 'Alan Turing' },
      changeNotes: 'First version',
    },
    {
      ...content,
      id: 'v-2',
      version: 2,
      isActive: true,
      createdAt: '2025-02-01T10:00:00.000Z',
      createdBy: { name: 'Grace Hopper' },
      changeNotes: 'Added the study plan',
    },
  ];
}

/** The service's refusal of a section that would give each student more questions than it has. */
function drawRefusal(body: SaveBody): string | null {
  for (const s of body.sections) {
    const count = body.questions.filter((q) => q.section === s.id).length;
    if (s.draw && s.draw > count) {
      return `Section ${s.id}: each student can be given at most its ${count} ${count === 1 ? 'question' : 'questions'}, not ${s.draw}`;
    }
  }
  return null;
}

/** A save as the service stores it: the defaults filled in, a question's file only when it has one. */
function stored(body: SaveBody, version: number): Assessment {
  const count = (section: number) => body.questions.filter((q) => q.section === section).length;
  return {
    id: `v-${version}`,
    version,
    title: body.title,
    description: body.description ?? '',
    timeLimit: body.timeLimit,
    passingScore: body.passingScore,
    // A draw of every question (or none) is no draw: stored as absent.
    sections: body.sections.map(({ draw, ...s }) => ({
      ...s,
      description: s.description ?? '',
      ...(draw && draw < count(s.id) ? { draw } : {}),
    })),
    questions: body.questions.map(({ downloadableFile, ...q }) => ({
      ...q,
      required: q.required ?? true,
      hasDownloadableFile: q.hasDownloadableFile ?? false,
      ...(downloadableFile ? { downloadableFile } : {}),
    })),
    shuffleQuestions: body.shuffleQuestions ?? false,
    shuffleOptions: body.shuffleOptions ?? false,
    // None, or one whose options count only when it is a multiple-choice one.
    practiceQuestion: body.practiceQuestion
      ? {
          ...body.practiceQuestion,
          options:
            body.practiceQuestion.type === 'multiple_choice' ? (body.practiceQuestion.options ?? []) : [],
        }
      : null,
    translations: body.translations ?? {},
    // The fake keeps no record of what translations were written against: a save leaves none outdated.
    outdatedTranslations: {},
    changeNotes: body.changeNotes ?? '',
    isActive: true,
    createdAt: new Date().toISOString(),
    createdBy: { name: 'Grace Hopper' },
  };
}

const active = () => store.versions.find((v) => v.isActive);
const notFound = () => refusal(404, { message: 'Assessment not found', code: 'not_found' });

const handlers = [
  http.get('/api/assessment', () => {
    const current = active();
    return current ? answer('/api/assessment', 'get', { assessment: current }) : notFound();
  }),
  http.get('/api/assessment/versions', () =>
    answer('/api/assessment/versions', 'get', {
      versions: [...store.versions].reverse().map((v) => ({
        id: v.id,
        title: v.title,
        version: v.version,
        isActive: v.isActive,
        createdAt: v.createdAt,
        createdBy: v.createdBy,
        changeNotes: v.changeNotes,
        questionCount: v.questions.length,
        sectionCount: v.sections.length,
      })),
    }),
  ),
  http.get('/api/assessment/versions/{version}', ({ params }) => {
    const found = store.versions.find((v) => v.version === Number(params.version));
    return found ? answer('/api/assessment/versions/{version}', 'get', { assessment: found }) : notFound();
  }),
  http.post('/api/assessment/versions/{version}/activate', ({ params }) => {
    const target = store.versions.find((v) => v.version === Number(params.version));
    if (!target) return notFound();
    store.versions = store.versions.map((v) => ({ ...v, isActive: v === target }));
    return answer('/api/assessment/versions/{version}/activate', 'post', {
      assessment: { ...target, isActive: true },
    });
  }),
  http.put('/api/assessment', async ({ request }) => {
    const body: SaveBody = await request.json();
    store.saves.push(body);
    const latest = Math.max(0, ...store.versions.map((v) => v.version));
    if (body.baseVersion !== undefined && body.baseVersion !== latest) {
      return refusal(409, { message: STALE_MESSAGE, code: 'CONFLICT' });
    }
    const drawProblem = drawRefusal(body);
    if (drawProblem) return refusal(400, { message: drawProblem, code: 'bad_request' });
    const created = stored(body, latest + 1);
    store.versions = [...store.versions.map((v) => ({ ...v, isActive: false })), created];
    return answer('/api/assessment', 'put', { assessment: created });
  }),
  http.post('/api/assessment/upload-file', () =>
    answer(
      '/api/assessment/upload-file',
      'post',
      { file: { originalName: 'syllabus.pdf', filename: 'f-new.pdf', size: 5120 } },
      { status: 201 },
    ),
  ),
  http.delete('/api/assessment/file/{filename}', ({ params }) => {
    store.deletedFiles.push(params.filename);
    return answer('/api/assessment/file/{filename}', 'delete', { message: 'File deleted', removed: true });
  }),
];

/** Installs the stand-in for one test file, on top of the shared auth handlers. */
export function useAssessmentServer(): void {
  beforeEach(() => {
    seedAssessment();
    server.use(...handlers);
  });
}

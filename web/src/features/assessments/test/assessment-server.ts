import { http, HttpResponse } from 'msw';
import { server } from '../../../testing/server';
import type { Assessment } from '../api/types';

/*
 * An in-memory stand-in for the assessment service, speaking the calls of SPEC §7 plus version
 * activation, one version whole and the stale-base check: every save is a new active version.
 */
export const store = {
  versions: [] as Assessment[],
  saves: [] as Record<string, unknown>[],
  deletedFiles: [] as string[],
};

export const STALE_MESSAGE = 'Someone else saved a newer version of this assessment. Reload to see it.';

const content = {
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
      type: 'yes_no' as const,
      question: 'Do you have a reliable internet connection?',
      correctAnswer: 'yes',
      points: 1,
      section: 1,
      required: true,
    },
    {
      id: 'q2',
      type: 'multiple_choice' as const,
      question: 'How many hours a week can you study?',
      correctAnswer: 'o2',
      points: 2,
      section: 2,
      required: true,
      options: [
        { id: 'o1', text: 'Less than 5' },
        { id: 'o2', text: '5 to 10' },
      ],
    },
    {
      id: 'q3',
      type: 'file_upload' as const,
      question: 'Upload your weekly study plan',
      points: 3,
      section: 2,
      required: false,
      fileInstructions: 'Use the template',
      hasDownloadableFile: true,
      downloadableFile: { originalName: 'plan-template.docx', filename: 'f-abc.docx', size: 2048 },
    },
  ],
};

export function seedAssessment(): void {
  store.saves.length = 0;
  store.deletedFiles.length = 0;
  store.versions = [
    {
      ...content,
      title: 'Readiness (first draft)',
      version: 1,
      isActive: false,
      createdAt: '2025-01-10T09:00:00.000Z',
      createdBy: { name: 'Alan Turing' },
      changeNotes: 'First version',
    },
    {
      ...content,
      version: 2,
      isActive: true,
      createdAt: '2025-02-01T10:00:00.000Z',
      createdBy: { name: 'Grace Hopper' },
      changeNotes: 'Added the study plan',
    },
  ];
}

const active = () => store.versions.find((v) => v.isActive);
const notFound = () => HttpResponse.json({ message: 'Assessment not found' }, { status: 404 });

const handlers = [
  http.get('*/api/assessment', () => {
    const current = active();
    return current ? HttpResponse.json({ assessment: current }) : notFound();
  }),
  http.get('*/api/assessment/versions', () =>
    HttpResponse.json({
      versions: [...store.versions].reverse().map((v) => ({
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
  http.get('*/api/assessment/versions/:version', ({ params }) => {
    const found = store.versions.find((v) => v.version === Number(params.version));
    return found ? HttpResponse.json({ assessment: found }) : notFound();
  }),
  http.post('*/api/assessment/versions/:version/activate', ({ params }) => {
    const target = store.versions.find((v) => v.version === Number(params.version));
    if (!target) return notFound();
    store.versions = store.versions.map((v) => ({ ...v, isActive: v === target }));
    return HttpResponse.json({ assessment: { ...target, isActive: true } });
  }),
  http.put('*/api/assessment', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    store.saves.push(body);
    const latest = Math.max(0, ...store.versions.map((v) => v.version));
    if (body.baseVersion !== undefined && body.baseVersion !== latest) {
      return HttpResponse.json({ message: STALE_MESSAGE, code: 'CONFLICT' }, { status: 409 });
    }
    const { baseVersion: _base, ...saved } = body;
    const created = {
      ...(saved as unknown as Assessment),
      version: latest + 1,
      isActive: true,
      createdAt: new Date().toISOString(),
      createdBy: { name: 'Grace Hopper' },
    };
    store.versions = [...store.versions.map((v) => ({ ...v, isActive: false })), created];
    return HttpResponse.json({ assessment: created });
  }),
  http.post('*/api/assessment/upload-file', () =>
    HttpResponse.json({ file: { originalName: 'syllabus.pdf', filename: 'f-new.pdf', size: 5120 } }),
  ),
  http.delete('*/api/assessment/file/:filename', ({ params }) => {
    store.deletedFiles.push(String(params.filename));
    return new HttpResponse(null, { status: 204 });
  }),
];

/** Installs the stand-in for one test file, on top of the shared auth handlers. */
export function useAssessmentServer(): void {
  beforeEach(() => {
    seedAssessment();
    server.use(...handlers);
  });
}

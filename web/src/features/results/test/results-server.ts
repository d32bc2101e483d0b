import { HttpResponse, type HttpHandler } from 'msw';
import type { PathsFor } from 'openapi-msw';
import { performanceLevel } from '../../../lib/bands';
import { answer, refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { onePage } from '../../../testing/paging';
import { server } from '../../../testing/server';
import type { ItemAnalysis, ResultDetail, ResultRow, TimelineEntry } from '../api/types';

/*
 * An in-memory stand-in for the results service (and the report service's two PDF calls), speaking
 * api.md: server-side search, filter, sort and paging with stats over every result, the detail,
 * delete, resend, the CSV export and item analysis.
 */
export const store = {
  results: [] as ResultRow[],
  details: new Map<string, ResultDetail>(),
  listQueries: [] as URLSearchParams[],
  exports: [] as URLSearchParams[],
  resent: [] as string[],
  fileRequests: [] as { path: string; authorization: string | null }[],
  analysisQueries: [] as URLSearchParams[],
};

export function makeResult(i: number, overrides: Partial<ResultRow> = {}): ResultRow {
  const percentage = (i * 37) % 101;
  return {
    _id: `r-${i}`,
    studentId: `st-${i}`,
    student: { name: `Student ${String(i).padStart(3, '0')}`, email: `student${i}@example.edu` },
    score: percentage,
    totalPoints: 100,
    percentage,
    passed: percentage >= 70,
    performanceLevel: performanceLevel(percentage),
    assessmentCode: `RDY-${String(i).padStart(4, '0')}-TEST`,
    completedAt: new Date(Date.UTC(2025, 2, 1, 9) + i * 60_000).toISOString(),
    attemptNumber: 1,
    canRetake: percentage < 70,
    version: 1,
    ...overrides,
  };
}

export const marie = makeResult(1, {
  _id: 'r-marie',
  student: { name: 'Marie Curie', email: 'marie@example.edu' },
  score: 9,
  totalPoints: 10,
  percentage: 90,
  passed: true,
  performanceLevel: 'Excellent',
  assessmentCode: 'RDY-7K3F-92QX',
});
export const niels = makeResult(2, {
  _id: 'r-niels',
  student: { name: 'Niels Bohr', email: 'niels@example.edu' },
  score: 5,
  totalPoints: 10,
  percentage: 50,
  passed: false,
  performanceLevel: 'Needs Improvement',
  // A code is always a string; an empty one reads 'N/A'.
  assessmentCode: '',
});

/** A moment of 1 March 2025 (or another day) on this machine's clock, so the times read alike in any zone. */
export const localTime = (hours: number, minutes: number, seconds: number, day = 1) =>
  new Date(2025, 2, day, hours, minutes, seconds).toISOString();

/** Marie's attempt as the server recorded it: every kind of fact, oldest first. */
export const marieTimeline: TimelineEntry[] = [
  { kind: 'started', at: localTime(10, 0, 0) },
  { kind: 'section_reached', at: localTime(10, 0, 1), sectionId: 1 },
  { kind: 'saved', at: localTime(10, 0, 40), until: localTime(10, 0, 40), count: 1 },
  { kind: 'page_hidden', at: localTime(10, 1, 10), seconds: 45 },
  { kind: 'section_reached', at: localTime(10, 2, 15), sectionId: 2 },
  { kind: 'saved', at: localTime(10, 2, 30), until: localTime(10, 20, 3), count: 12 },
  { kind: 'offline', at: localTime(10, 5, 0), seconds: 125 },
  { kind: 'pasted', at: localTime(10, 6, 0), questionId: 'q10', count: 120 },
  { kind: 'second_device', at: localTime(10, 7, 0) },
  { kind: 'extended', at: localTime(10, 8, 0), minutes: 15, actorId: 'a-super' },
  { kind: 'extended', at: localTime(10, 9, 0), minutes: 1, actorId: 'a-other' },
  { kind: 'page_hidden', at: localTime(10, 10, 0), seconds: 3780 },
  { kind: 'section_reached', at: localTime(10, 11, 0), sectionId: 9 },
  { kind: 'pasted', at: localTime(10, 12, 0), questionId: 'q-removed', count: 1 },
  { kind: 'submitted', at: localTime(10, 21, 0) },
];

export const marieDetail: ResultDetail = {
  ...marie,
  passingScore: 70,
  timeSpent: 12,
  startedAt: '2025-03-01T08:49:00.000Z',
  sections: [
    {
      id: 1,
      title: 'Digital Skills',
      description: 'Using a computer and the web',
      score: 5,
      totalPoints: 5,
      correct: 3,
      questions: 3,
      percentage: 100,
      performanceLevel: 'Excellent',
    },
    {
      id: 2,
      title: 'Study Habits',
      description: '',
      score: 4,
      totalPoints: 5,
      correct: 2,
      questions: 3,
      percentage: 80,
      performanceLevel: 'Good',
    },
  ],
  answers: [
    {
      questionId: 'q10',
      number: 4,
      paperPosition: null,
      question: 'Tenth question',
      type: 'yes_no',
      section: 2,
      answer: 'no',
      answerText: 'No',
      isCorrect: false,
      points: 0,
      maxPoints: 1,
      skipped: false,
    },
    {
      questionId: 'q2',
      number: 2,
      paperPosition: null,
      question: 'Second question',
      type: 'yes_no',
      section: 1,
      answer: 'yes',
      answerText: 'Yes',
      isCorrect: true,
      points: 1,
      maxPoints: 1,
      skipped: false,
    },
    {
      questionId: 'q1',
      number: 1,
      paperPosition: null,
      question: 'First question',
      type: 'multiple_choice',
      section: 1,
      answer: 'b',
      answerText: 'A browser',
      isCorrect: true,
      points: 2,
      maxPoints: 2,
      skipped: false,
    },
    {
      questionId: 'q3',
      number: 3,
      paperPosition: null,
      question: 'Upload your timetable',
      type: 'file_upload',
      section: 1,
      answer: 'file_uploaded',
      answerText: 'file_uploaded',
      isCorrect: true,
      points: 2,
      maxPoints: 2,
      skipped: false,
      file: {
        originalName: 'timetable.pdf',
        size: 1200,
        mimetype: 'application/pdf',
        url: '/api/admin/students/st-1/attempts/at-1/files/q3',
      },
    },
  ],
  assessmentVersion: {
    versionId: 'v-1',
    version: 1,
    title: 'Readiness',
    passingScore: 70,
    sections: [
      {
        id: 1,
        title: 'Digital Skills',
        description: '',
        questions: [
          {
            id: 'q1',
            number: 1,
            type: 'multiple_choice',
            question: 'First question',
            points: 2,
            required: true,
            correctAnswer: 'b',
            options: [
              { id: 'a', text: 'A spreadsheet' },
              { id: 'b', text: 'A browser' },
            ],
          },
          {
            id: 'q2',
            number: 2,
            type: 'yes_no',
            question: 'Second question',
            points: 1,
            required: true,
            correctAnswer: 'yes',
            options: [],
          },
          {
            id: 'q3',
            number: 3,
            type: 'file_upload',
            question: 'Upload your timetable',
            points: 2,
            required: true,
            correctAnswer: '',
            options: [],
          },
        ],
      },
      {
        id: 2,
        title: 'Study Habits',
        description: '',
        questions: [
          {
            id: 'q10',
            number: 4,
            type: 'yes_no',
            question: 'Tenth question',
            points: 1,
            required: true,
            correctAnswer: 'yes',
            options: [],
          },
        ],
      },
    ],
  },
  timeline: marieTimeline,
};

export const analysis: ItemAnalysis = {
  version: 2,
  versions: [2, 1],
  attempts: 12,
  questions: [
    {
      id: 'q1',
      number: 1,
      question: 'Do you have a computer?',
      type: 'yes_no',
      section: 1,
      attempts: 12,
      correct: 9,
      skipped: 0,
      facility: 0.75,
    },
    {
      id: 'q2',
      number: 2,
      question: 'Which is a browser?',
      type: 'multiple_choice',
      section: 2,
      attempts: 12,
      correct: 3,
      skipped: 0,
      facility: 0.25,
    },
  ],
  sections: [
    { id: 1, title: 'Digital Skills', meanPercentage: 75 },
    { id: 2, title: 'Study Habits', meanPercentage: 25 },
  ],
  distribution: Array.from({ length: 10 }, (_, i) => ({
    from: i * 10,
    to: i === 9 ? 100 : i * 10 + 9,
    count: i === 7 ? 5 : i === 2 ? 1 : 0,
  })),
};

export function seedResults(results: ResultRow[] = [marie, niels]): void {
  store.results = results;
  store.details = new Map([[marie._id, marieDetail]]);
  store.listQueries.length = 0;
  store.exports.length = 0;
  store.resent.length = 0;
  store.fileRequests.length = 0;
  store.analysisQueries.length = 0;
}

function matching(params: URLSearchParams): ResultRow[] {
  const q = (params.get('search') ?? '').toLowerCase();
  const status = params.get('status') ?? 'all';
  const sortBy = params.get('sortBy') ?? 'completedAt';
  const sign = params.get('sortOrder') === 'asc' ? 1 : -1;
  const key = (r: ResultRow): string | number =>
    sortBy === 'studentName'
      ? r.student.name
      : sortBy === 'score'
        ? r.percentage
        : sortBy === 'assessmentCode'
          ? r.assessmentCode
          : r.completedAt;
  return store.results
    .filter(
      (r) =>
        (!q || r.student.name.toLowerCase().includes(q) || r.student.email.includes(q)) &&
        (status === 'all' || r.passed === (status === 'passed')),
    )
    .sort((a, b) => (key(a) < key(b) ? -sign : key(a) > key(b) ? sign : 0));
}

const pdf = (name: string) =>
  new HttpResponse(new Blob(['%PDF-1.7 test'], { type: 'application/pdf' }), {
    headers: { 'Content-Disposition': `attachment; filename="${name}"` },
  });

const notFound = () => refusal(404, { message: 'Result not found', code: 'not_found' });

const handlers = [
  http.get('/api/admin/results/export.csv', ({ request, response }) => {
    store.exports.push(new URL(request.url).searchParams);
    return response.untyped(new HttpResponse('name,email\n', { headers: { 'Content-Type': 'text/csv' } }));
  }),
  http.get('/api/admin/results/analysis', ({ request }) => {
    const params = new URL(request.url).searchParams;
    store.analysisQueries.push(params);
    const version = Number(params.get('version') ?? analysis.version);
    return answer('/api/admin/results/analysis', 'get', {
      ...analysis,
      version,
      attempts: version === 1 ? 0 : analysis.attempts,
    });
  }),
  http.get('/api/admin/results', ({ request }) => {
    const params = new URL(request.url).searchParams;
    store.listQueries.push(params);
    const { rows, pagination } = onePage(matching(params), params, 20);
    const passed = store.results.filter((r) => r.passed).length;
    const total = store.results.length;
    return answer('/api/admin/results', 'get', {
      results: rows,
      pagination,
      stats: {
        totalResults: total,
        passed,
        failed: total - passed,
        // Whole percents, as the service works them out (`percentOf`): its declaration says integer.
        averagePercentage: total
          ? Math.round(store.results.reduce((s, r) => s + r.percentage, 0) / total)
          : 0,
        passRate: total ? Math.round((passed * 100) / total) : 0,
      },
    });
  }),
  http.get('/api/admin/results/{id}/pdf', ({ request, params, response }) => {
    store.fileRequests.push({
      path: new URL(request.url).pathname,
      authorization: request.headers.get('authorization'),
    });
    const result = store.results.find((r) => r._id === params.id);
    return result ? response.untyped(pdf(`assessment-report-${result.student.name}.pdf`)) : notFound();
  }),
  http.get('/api/admin/results/{id}/certificate', ({ request, params, response }) => {
    store.fileRequests.push({
      path: new URL(request.url).pathname,
      authorization: request.headers.get('authorization'),
    });
    const result = store.results.find((r) => r._id === params.id && r.passed);
    return result ? response.untyped(pdf('certificate.pdf')) : notFound();
  }),
  http.get(
    '/api/admin/students/{studentId}/attempts/{attemptId}/files/{questionId}',
    ({ request, response }) => {
      store.fileRequests.push({
        path: new URL(request.url).pathname,
        authorization: request.headers.get('authorization'),
      });
      return response.untyped(
        new HttpResponse(new Blob(['%PDF-1.7 answer']), { headers: { 'Content-Type': 'application/pdf' } }),
      );
    },
  ),
  http.get('/api/admin/results/{id}', ({ params }) => {
    const detail = store.details.get(params.id);
    return detail ? answer('/api/admin/results/{id}', 'get', { result: detail }) : notFound();
  }),
  http.delete('/api/admin/results/{id}', ({ params }) => {
    store.results = store.results.filter((r) => r._id !== params.id);
    return answer('/api/admin/results/{id}', 'delete', { message: 'Assessment result deleted successfully' });
  }),
  http.post('/api/admin/results/{id}/resend-certificate', ({ params }) => {
    const result = store.results.find((r) => r._id === params.id);
    if (!result?.passed) {
      return refusal(409, {
        code: 'not_passed',
        message: 'Only a passed result has a certificate to resend',
      });
    }
    store.resent.push(params.id);
    return answer('/api/admin/results/{id}/resend-certificate', 'post', {
      message: 'Certificate resent successfully',
    });
  }),
];

type FailingMethod = 'get' | 'post' | 'delete';

/**
 * A failure of one declared call (its method and path checked against the services' declarations), for the load-
 * and action-failure toasts: the services' error body, or without `message` the bare `{ code }` that leaves the
 * screen to its own words. Neither a 5xx nor a message-less error is declared by any operation, so the body goes
 * through `response.untyped`.
 */
export function failing<M extends FailingMethod>(
  method: M,
  path: PathsFor<(typeof http)[M]>,
  status = 500,
  message?: string,
): HttpHandler {
  const fail = <R>({ response }: { response: { untyped(r: Response): R } }): R =>
    response.untyped(
      HttpResponse.json(message ? { message, code: 'failed' } : { code: 'failed' }, { status }),
    );
  // `path` is the method's (the signature checks it); TypeScript does not narrow it with `method`.
  if (method === 'get') return http.get(path as PathsFor<typeof http.get>, fail);
  if (method === 'post') return http.post(path as PathsFor<typeof http.post>, fail);
  return http.delete(path as PathsFor<typeof http.delete>, fail);
}

/**
 * The files the screens saved: object URLs are made from the fetched blob and handed to an anchor
 * with a download name; jsdom has neither, so both are caught here.
 */
export const saved: string[] = [];

/** Installs the stand-in for one test file, on top of the shared auth handlers. */
export function useResultsServer(): void {
  beforeEach(() => {
    seedResults();
    saved.length = 0;
    server.use(...handlers);
    URL.createObjectURL = jest.fn(() => 'blob:result-file');
    URL.revokeObjectURL = jest.fn();
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
  });
  afterEach(() => jest.restoreAllMocks());
}

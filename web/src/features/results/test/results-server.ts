import { HttpResponse, type HttpHandler } from 'msw';
import type { PathsFor } from 'openapi-msw';
import { timestampFromDate } from '@readiness/contracts';
import {
  attemptSubmitted,
  oneWrongAnswer,
  resultFailed,
  resultRecorded,
  rightAnswers,
  student,
  versionPublished,
} from '@readiness/testing/fixtures';
import { answer, refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { onePage } from '../../../testing/paging';
import {
  resultDetailOf,
  resultRowOf,
  type RecordedResult,
  type SubmittedAttempt,
} from '../../../testing/seeded';
import { server } from '../../../testing/server';
import type { ItemAnalysis, ResultDetail, TimelineEntry } from '../api/types';
import type { LmsGrade } from '../../lti/api/lti-api';
import { captureSavedFiles } from '../../../testing/saved-files';

/*
 * An in-memory stand-in for the results service (and the report service's two PDF calls), speaking
 * api.md: server-side search, filter, sort and paging with stats over every result, the detail,
 * delete, resend, the CSV export and item analysis. It keeps results as the service announces them
 * (the shared fixtures' `results.result.recorded.v1`) and answers with the service's own mapping of them
 * (`resultRowOf`, `resultDetailOf`): no figure is made up here.
 */

/** The version every seeded result was scored against: the fixtures' assessment. */
export const version = versionPublished();

/** A moment of 1 March 2025 (or another day) on this machine's clock, so the times read alike in any zone. */
export const localTime = (hours: number, minutes: number, seconds: number, day = 1) =>
  new Date(2025, 2, day, hours, minutes, seconds).toISOString();

/** The passed attempt as the server recorded it: every kind of fact, oldest first. */
export const passedTimeline: TimelineEntry[] = [
  { kind: 'started', at: localTime(10, 0, 0) },
  { kind: 'section_reached', at: localTime(10, 0, 1), sectionId: 1 },
  { kind: 'saved', at: localTime(10, 0, 40), until: localTime(10, 0, 40), count: 1 },
  { kind: 'page_hidden', at: localTime(10, 1, 10), seconds: 45 },
  { kind: 'section_reached', at: localTime(10, 2, 15), sectionId: 2 },
  { kind: 'saved', at: localTime(10, 2, 30), until: localTime(10, 20, 3), count: 12 },
  { kind: 'offline', at: localTime(10, 5, 0), seconds: 125 },
  { kind: 'pasted', at: localTime(10, 6, 0), questionId: 'q2', count: 120 },
  { kind: 'second_device', at: localTime(10, 7, 0) },
  { kind: 'extended', at: localTime(10, 8, 0), minutes: 15, actorId: 'a-super' },
  { kind: 'extended', at: localTime(10, 9, 0), minutes: 1, actorId: 'a-other' },
  { kind: 'page_hidden', at: localTime(10, 10, 0), seconds: 3780 },
  { kind: 'section_reached', at: localTime(10, 11, 0), sectionId: 9 },
  { kind: 'pasted', at: localTime(10, 12, 0), questionId: 'q-removed', count: 1 },
  { kind: 'submitted', at: localTime(10, 21, 0) },
];

/** Ada, every answer right (the fixtures' `resultRecorded`: 6 of 6, passed), handed in at 10:21 on 1 March 2025. */
export const ada = student();
export const passedAttempt = attemptSubmitted({
  ...ada,
  versionId: version.versionId,
  answers: rightAnswers(),
  submittedAt: new Date(localTime(10, 21, 0)),
  timeline: passedTimeline,
});
export const passedResult = resultRecorded({
  ...ada,
  attemptId: passedAttempt.attemptId,
  versionId: version.versionId,
  completedAt: passedAttempt.submittedAt,
  timeline: passedAttempt.timeline,
});

/**
 * Grace, the multiple choice wrong (the fixtures' `resultFailed`: 4 of 6, failed), handed in before Ada; her result
 * has an empty code (a code is always a string; an empty one reads 'N/A').
 */
export const grace = student({ name: 'Grace Hopper', email: 'grace@example.edu' });
export const failedAttempt = attemptSubmitted({
  ...grace,
  versionId: version.versionId,
  answers: oneWrongAnswer(),
  submittedAt: new Date(localTime(9, 30, 0)),
});
export const failedResult = resultFailed({
  ...grace,
  attemptId: failedAttempt.attemptId,
  versionId: version.versionId,
  completedAt: failedAttempt.submittedAt,
  assessmentCode: '',
});

/** The detail of a seeded result, as the service gives it from the result, its version and the attempt. */
export const detailOf = (recorded: RecordedResult): ResultDetail =>
  resultDetailOf(
    recorded,
    version.versionId === recorded.versionId ? version : undefined,
    store.attempts.find((a) => a.attemptId === recorded.attemptId),
  );

/**
 * `count` students' results (Student 001, Student 002, …), a minute apart from 09:01 UTC on 1 March 2025: the odd
 * ones the fixtures' passed result, the even ones its failed one.
 */
export function studentsResults(count: number): RecordedResult[] {
  return Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    const s = student({ name: `Student ${String(n).padStart(3, '0')}`, email: `student${n}@example.edu` });
    const completedAt = timestampFromDate(new Date(Date.UTC(2025, 2, 1, 9) + n * 60_000));
    return (n % 2 ? resultRecorded : resultFailed)({ ...s, versionId: version.versionId, completedAt });
  });
}

export const store = {
  results: [] as RecordedResult[],
  /** The attempts handed in, whose start, length and files the results keep. */
  attempts: [] as SubmittedAttempt[],
  /** A test's own detail for a result, in place of the one worked out from it. */
  details: new Map<string, ResultDetail>(),
  listQueries: [] as URLSearchParams[],
  exports: [] as URLSearchParams[],
  resent: [] as string[],
  fileRequests: [] as { path: string; authorization: string | null }[],
  analysisQueries: [] as URLSearchParams[],
  /** The grades for an LMS, by result (none: the student did not come from one), and the results sent again. */
  lmsGrades: new Map<string, LmsGrade>(),
  gradesSentAgain: [] as string[],
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

export function seedResults(results: RecordedResult[] = [passedResult, failedResult]): void {
  store.results = results;
  store.attempts = [passedAttempt, failedAttempt];
  store.details = new Map();
  store.listQueries.length = 0;
  store.exports.length = 0;
  store.resent.length = 0;
  store.fileRequests.length = 0;
  store.analysisQueries.length = 0;
  store.lmsGrades = new Map();
  store.gradesSentAgain.length = 0;
}

/** The results the list's search and filter keep, in its order (the service sorts a score by its stored percentage). */
function matching(params: URLSearchParams): RecordedResult[] {
  const q = (params.get('search') ?? '').toLowerCase();
  const status = params.get('status') ?? 'all';
  const sortBy = params.get('sortBy') ?? 'completedAt';
  const sign = params.get('sortOrder') === 'asc' ? 1 : -1;
  const key = (r: RecordedResult): string | number =>
    sortBy === 'studentName'
      ? r.name
      : sortBy === 'score'
        ? r.percentage
        : sortBy === 'assessmentCode'
          ? r.assessmentCode
          : resultRowOf(r).completedAt;
  return store.results
    .filter(
      (r) =>
        (!q || r.name.toLowerCase().includes(q) || r.email.includes(q)) &&
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
      results: rows.map(resultRowOf),
      pagination,
      stats: {
        totalResults: total,
        passed,
        failed: total - passed,
        // Whole percents, as the service works them out from the stored (whole) percentages and `percentOf`.
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
    const result = store.results.find((r) => r.resultId === params.id);
    return result ? response.untyped(pdf(`assessment-report-${result.name}.pdf`)) : notFound();
  }),
  http.get('/api/admin/results/{id}/certificate', ({ request, params, response }) => {
    store.fileRequests.push({
      path: new URL(request.url).pathname,
      authorization: request.headers.get('authorization'),
    });
    const result = store.results.find((r) => r.resultId === params.id && r.passed);
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
    const recorded = store.results.find((r) => r.resultId === params.id);
    const detail = store.details.get(params.id) ?? (recorded && detailOf(recorded));
    return detail ? answer('/api/admin/results/{id}', 'get', { result: detail }) : notFound();
  }),
  http.delete('/api/admin/results/{id}', ({ params }) => {
    store.results = store.results.filter((r) => r.resultId !== params.id);
    return answer('/api/admin/results/{id}', 'delete', { message: 'Assessment result deleted successfully' });
  }),
  http.get('/api/admin/lti/grades/{resultId}', ({ params }) => {
    const grade = store.lmsGrades.get(params.resultId);
    return grade ? answer('/api/admin/lti/grades/{resultId}', 'get', { grade }) : notFound();
  }),
  http.post('/api/admin/lti/grades/{resultId}/send', ({ params }) => {
    const grade = store.lmsGrades.get(params.resultId);
    if (!grade || grade.state === 'none') return notFound();
    const queued = { ...grade, state: 'pending' as const, tries: 0, lastStatus: null, lastAnswer: null };
    store.lmsGrades.set(params.resultId, queued);
    store.gradesSentAgain.push(params.resultId);
    return answer('/api/admin/lti/grades/{resultId}/send', 'post', { grade: queued }, { status: 202 });
  }),
  http.post('/api/admin/results/{id}/resend-certificate', ({ params }) => {
    const result = store.results.find((r) => r.resultId === params.id);
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

/** The files the screens saved, by name. */
export const saved: string[] = [];

/** Installs the stand-in for one test file, on top of the shared auth handlers. */
export function useResultsServer(): void {
  captureSavedFiles(saved);
  beforeEach(() => {
    seedResults();
    server.use(...handlers);
  });
}

import { timestampDate, type EventPayload } from '@readiness/contracts';
import type { ApiAnswer } from '../lib/api-types';

/*
 * The web's fakes answer from the shared fixtures (`@readiness/testing/fixtures`), the content every level of the
 * tests is seeded with: the assessment, its students and the result the results service records for an attempt
 * at it. What follows only puts those figures into the shapes the web's calls are answered in; no figure is
 * made up here.
 */

/** A result as the results service announces it (`results.result.recorded.v1`). */
export type RecordedResult = EventPayload<'results.result.recorded.v1'>;

const isoOf = (recorded: RecordedResult) =>
  (recorded.completedAt ? timestampDate(recorded.completedAt) : new Date(0)).toISOString();

/** A student's result as `GET /api/student/{token}/results` lists it (the student service's copy of the event). */
export const studentResultOf = (
  recorded: RecordedResult,
): ApiAnswer<'/api/student/{token}/results', 'get'>['results'][number] => ({
  _id: recorded.resultId,
  attemptId: recorded.attemptId,
  attemptNumber: recorded.attemptNumber,
  score: recorded.score,
  totalPoints: recorded.totalPoints,
  percentage: recorded.percentage,
  passed: recorded.passed,
  canRetake: recorded.canRetake,
  assessmentCode: recorded.assessmentCode,
  completedAt: isoOf(recorded),
  passingScore: recorded.passingScore,
  certificateUrl: null,
  sections: recorded.sections.map((s) => ({
    id: s.sectionId,
    title: s.title,
    score: s.score,
    totalPoints: s.totalPoints,
    correct: s.correct,
    questions: s.questions,
    percentage: s.percentage,
  })),
});

/** The public verification of a passed result's certificate (`GET /api/certificates/{code}`). */
export const certificateOf = (recorded: RecordedResult): ApiAnswer<'/api/certificates/{code}', 'get'> => ({
  valid: true,
  name: recorded.name,
  assessmentTitle: recorded.assessmentTitle,
  percentage: recorded.percentage,
  issuedAt: isoOf(recorded),
});

/** A recent result as the admin dashboard (`GET /api/admin/dashboard`) lists it. */
export const recentResultOf = (
  recorded: RecordedResult,
): ApiAnswer<'/api/admin/dashboard', 'get'>['recentResults'][number] => ({
  _id: recorded.resultId,
  student: { name: recorded.name, email: recorded.email },
  percentage: recorded.percentage,
  passed: recorded.passed,
  completedAt: isoOf(recorded),
});

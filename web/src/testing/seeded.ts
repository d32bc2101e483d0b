import {
  performanceLevel,
  publishedVersion,
  recordedResult,
  sectionFigures,
  shownPercentage,
  timestampDate,
  type EventPayload,
  type PublishedVersion,
} from '@readiness/contracts';
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
  sections: recorded.sections.map((s) => ({ id: s.sectionId, ...sectionFigures(s) })),
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

/** A row of the admin results list (`GET /api/admin/results`). */
export type ResultRowAnswer = ApiAnswer<'/api/admin/results', 'get'>['results'][number];
/** A result's detail (`GET /api/admin/results/{id}`). */
export type ResultDetailAnswer = ApiAnswer<'/api/admin/results/{id}', 'get'>['result'];

/** An assessment version as the assessment service publishes it (`assessment.version.published.v1`). */
export type PublishedVersionEvent = EventPayload<'assessment.version.published.v1'>;
/** An attempt as the student service hands it in (`student.attempt.submitted.v1`). */
export type SubmittedAttempt = EventPayload<'student.attempt.submitted.v1'>;

/**
 * A row of the admin results list, as the results service maps its stored result (`toResultRow`): the percentage
 * and its band as shown, worked out from the points.
 */
export const resultRowOf = (recorded: RecordedResult): ResultRowAnswer => {
  const percentage = shownPercentage(recorded.score, recorded.totalPoints);
  return {
    _id: recorded.resultId,
    studentId: recorded.studentId,
    student: { name: recorded.name, email: recorded.email },
    score: recorded.score,
    totalPoints: recorded.totalPoints,
    percentage,
    passed: recorded.passed,
    performanceLevel: performanceLevel(percentage),
    assessmentCode: recorded.assessmentCode,
    completedAt: isoOf(recorded),
    attemptNumber: recorded.attemptNumber,
    canRetake: recorded.canRetake,
    version: recorded.version,
  };
};

const YES_NO: Record<string, string> = { yes: 'Yes', no: 'No' };

/**
 * A result's detail as the results service gives it (`toResultDetail`): the row; each section's figures with the
 * version's description; each answer with its question, its number in the version and the text a person reads; and
 * the version taken. `version` is the version the result was scored against (absent: a result whose version the
 * service has no copy of). What the result keeps of the attempt itself (when it started, how long it took, the
 * uploaded files) comes from `submitted`, the attempt as it was handed in; without it, none is known.
 */
export function resultDetailOf(
  recorded: RecordedResult,
  versionEvent: PublishedVersionEvent | undefined,
  submitted?: SubmittedAttempt,
): ResultDetailAnswer {
  const r = recordedResult(recorded);
  const version: PublishedVersion | undefined = versionEvent && publishedVersion(versionEvent);
  const questions = new Map(version?.questions.map((q) => [q.id, q]));
  const numbers = new Map(version?.questions.map((q, i) => [q.id, i + 1]));
  const sections = new Map(version?.sections.map((s) => [s.id, s]));
  const files = new Map(
    submitted?.answers.flatMap((a) =>
      a.file
        ? [
            [
              a.questionId,
              { originalName: a.file.originalName, size: Number(a.file.size), mimetype: a.file.mimetype },
            ] as const,
          ]
        : [],
    ),
  );
  const answerText = (answer: string, questionId: string) => {
    const file = files.get(questionId);
    if (file) return file.originalName;
    if (!answer) return '';
    const q = questions.get(questionId);
    if (q?.type === 'yes_no') return YES_NO[answer] ?? answer;
    if (q?.type === 'multiple_choice') return q.options.find((o) => o.id === answer)?.text ?? answer;
    return answer;
  };
  const fileUrl = (questionId: string) =>
    `/api/admin/students/${encodeURIComponent(r.studentId)}/attempts/${encodeURIComponent(r.attemptId)}/files/${encodeURIComponent(questionId)}`;
  return {
    ...resultRowOf(recorded),
    passingScore: r.passingScore,
    timeSpent: submitted?.timeSpentMinutes ?? 0,
    startedAt: submitted?.startedAt ? timestampDate(submitted.startedAt).toISOString() : null,
    timeline: r.timeline,
    sections: r.sections.map((s) => {
      const percentage = shownPercentage(s.score, s.totalPoints);
      return {
        id: s.sectionId,
        title: s.title,
        description: sections.get(s.sectionId)?.description ?? '',
        score: s.score,
        totalPoints: s.totalPoints,
        correct: s.correct,
        questions: s.questions,
        percentage,
        performanceLevel: performanceLevel(percentage),
      };
    }),
    answers: r.answers.map((a) => {
      const q = questions.get(a.questionId);
      const file = files.get(a.questionId);
      return {
        questionId: a.questionId,
        number: numbers.get(a.questionId) ?? null,
        paperPosition: a.paperPosition ?? null,
        question: q?.question ?? '',
        type: q?.type ?? 'yes_no',
        section: a.sectionId,
        answer: a.answer,
        answerText: answerText(a.answer, a.questionId),
        isCorrect: a.isCorrect,
        skipped: a.skipped === true,
        points: a.points,
        maxPoints: a.maxPoints,
        ...(file ? { file: { ...file, url: fileUrl(a.questionId) } } : {}),
      };
    }),
    assessmentVersion: version
      ? {
          versionId: version.versionId,
          version: version.version,
          title: version.title,
          passingScore: version.passingScore,
          sections: version.sections.map((s) => ({
            id: s.id,
            title: s.title,
            description: s.description,
            questions: version.questions
              .filter((q) => q.section === s.id)
              .map((q) => ({
                id: q.id,
                number: numbers.get(q.id)!,
                type: q.type,
                question: q.question,
                points: q.points,
                required: q.required,
                correctAnswer: q.correctAnswer,
                options: q.options,
              })),
          })),
        }
      : null,
  };
}

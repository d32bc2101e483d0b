import type { ApiAnswer, ApiBody } from '../../../lib/api-types';

/**
 * The shapes the student service answers with, as its operations declare them (the generated `api-schema.ts`):
 * a field the service adds, renames or drops changes these types, and the pages that use it fail to compile.
 */

/** The welcome page and the test: `GET /api/student/{token}/assessment`. */
export type AssessmentLoad = ApiAnswer<'/api/student/{token}/assessment', 'get'>;
export type StudentAssessment = AssessmentLoad['assessment'];
export type StudentQuestion = StudentAssessment['questions'][number];
export type StudentSection = StudentAssessment['sections'][number];
export type QuestionType = StudentQuestion['type'];
export type QuestionFile = NonNullable<StudentQuestion['downloadableFile']>;
/** The untimed question the welcome page offers before Start, with its answer: never scored, never saved. */
export type PracticeQuestion = NonNullable<StudentAssessment['practiceQuestion']>;
/** The version's texts in Spanish, French, Portuguese and Arabic, by language; English is its own. */
export type ContentTranslations = NonNullable<StudentAssessment['translations']>;
export type PreviousAttempt = NonNullable<AssessmentLoad['previousAttempt']>;

export type Attempt = NonNullable<AssessmentLoad['attempt']>;
export type Answer = Attempt['answers'][number];
export type UploadedFile = Attempt['files'][number];

/** A result as the student sees it: `GET /api/student/{token}/results`. */
export type StudentResult = ApiAnswer<'/api/student/{token}/results', 'get'>['results'][number];
export type StudentResultSection = StudentResult['sections'][number];

/** `POST /api/student/{token}/start`: a new attempt (201) or the one in progress (200). */
export type StartAnswer = ApiAnswer<'/api/student/{token}/start', 'post'>;
/** Start's 202: not admitted yet, in line with a ticket; no attempt exists and no time runs. */
export type WaitingAnswer = ApiAnswer<'/api/student/{token}/start', 'post', 202>;
/** `GET /api/waiting-room`: the line's public figures, the same for everyone. */
export type WaitingRoomFigures = ApiAnswer<'/api/waiting-room', 'get'>;

export type SubmitBody = ApiBody<'/api/student/{token}/submit', 'post'>;
/** The result at once (200), or the submission taken and its result on the way (202). */
export type SubmitAnswer =
  | ApiAnswer<'/api/student/{token}/submit', 'post', 200>
  | ApiAnswer<'/api/student/{token}/submit', 'post', 202>;

/** `POST /api/student/{token}/activity`: what the page saw of its attempt, for the attempt's timeline. */
export type ActivityBody = ApiBody<'/api/student/{token}/activity', 'post'>;
export type ActivityEntry = ActivityBody['entries'][number];

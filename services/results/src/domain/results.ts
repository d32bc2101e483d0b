import { enqueue } from '@readiness/kit/outbox';
import { RESULTS_EXPORTED, exportedPayload } from './events';
import type { Language, TimelineFact } from '@readiness/contracts';
import type { Database, Tx } from '@readiness/kit/db';
import { attemptStarted, eraseStudent, studentInvited } from '../data-access/students-repository';
import { saveVersion } from '../data-access/versions-repository';
import type { AssessmentVersion } from './assessment';
import { removeResult, resendCertificate } from './result-actions';
import { dashboard, exportBatches, itemAnalysis, listResultsPage, resultDetail } from './result-views';
import type { ResultFilter } from './result';
import { scoreAttempt } from './score-attempt';
import type { SubmittedAnswer } from './scoring';

export const RESULT_NOT_FOUND_MESSAGE = 'Result not found';
export const NOT_PASSED_MESSAGE = 'Only a passed result has a certificate to resend';
export const VERSION_NOT_FOUND_MESSAGE = 'Assessment version not found';

/** A submitted attempt, as student.attempt.submitted.v1 carries it. */
export interface Submission {
  attemptId: string;
  studentId: string;
  name: string;
  email: string;
  versionId: string;
  attemptNumber: number;
  startedAt: Date | null;
  submittedAt: Date;
  timeSpentMinutes: number;
  answers: SubmittedAnswer[];
  timeline: TimelineFact[];
  /** The attempt's language (English when the publisher left it out). */
  language: Language;
  /** The questions the attempt was given (a section's draw); empty: every question of the version. */
  questionIds: string[];
  /** The student's LMS launch the score goes back through ('' or absent: not from an LMS). */
  ltiLaunchId?: string;
}

type HandleOnce = <T>(
  consumer: string,
  message: { eventId: string; key?: string },
  effect: (tx: Tx) => Promise<T>,
) => Promise<{ duplicate: boolean; result?: T }>;

export interface ResultsDeps {
  database: Database;
  handleOnce: HandleOnce;
}

/**
 * The results service's use cases, one module each: scoring, the figures kept from student events, and the
 * admin views and actions.
 */
export function createResults(deps: ResultsDeps) {
  const db = deps.database.db;
  return {
    /** Keeps a published version; `activatedAt` when the event makes it the active one. */
    keepVersion: (version: AssessmentVersion, activatedAt: Date | null) =>
      saveVersion(db, version, activatedAt),
    score: (s: Submission, eventId: string) => scoreAttempt(deps, s, eventId),
    studentInvited: (s: { studentId: string; name: string; email: string }) => studentInvited(db, s),
    attemptStarted: (s: { studentId: string; attemptNumber: number }) => attemptStarted(db, s),
    /** Erases the student's figures and results. The other services erase their own copies from the same event. */
    studentDeleted: (studentId: string) => deps.database.transaction((tx) => eraseStudent(tx, studentId)),
    list: (filter: ResultFilter, page: { page: number; limit: number }) =>
      listResultsPage(deps, filter, page),
    detail: (id: string) => resultDetail(deps, id),
    remove: (id: string, actorId: string) => removeResult(deps, id, actorId),
    resendCertificate: (id: string, actorId: string) => resendCertificate(deps, id, actorId),
    dashboard: () => dashboard(deps),
    exportBatches: (filter: ResultFilter) => exportBatches(deps, filter),
    /** An export that was written whole, announced for the audit log. */
    exported: (e: { actorId: string; search?: string; status: string; rows: number }) =>
      deps.database.transaction(async (tx) => {
        await enqueue(tx, { name: RESULTS_EXPORTED, payload: exportedPayload(e) });
      }),
    analysis: (versionNumber?: number) => itemAnalysis(deps, versionNumber),
  };
}

export type Results = ReturnType<typeof createResults>;

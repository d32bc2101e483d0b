import type { Database, Tx } from '@readiness/kit/db';
import { conflict, notFound, notYet } from '@readiness/kit/errors';
import { enqueue } from '@readiness/kit/outbox';
import {
  analyseVersion,
  audit,
  deleteResult,
  eachResult,
  findResult,
  insertResult,
  listResults,
  recentResults,
  resultOfAttempt,
} from '../data-access/results-repository';
import {
  attemptScored,
  attemptStarted,
  eraseStudent,
  figures,
  isErased,
  studentInvited,
} from '../data-access/students-repository';
import {
  activeVersion,
  findVersion,
  saveVersion,
  versionByNumber,
  versionNumbers,
} from '../data-access/versions-repository';
import type { AssessmentVersion } from './assessment';
import { newAssessmentCode } from './assessment-code';
import {
  CERTIFICATE_RESEND_REQUESTED,
  RESULT_DELETED,
  RESULT_RECORDED,
  deletedPayload,
  recordedPayload,
  resendPayload,
} from './events';
import type { ResultFilter, ResultRecord } from './result';
import { percentOf, scoreSubmission, type SubmittedAnswer } from './scoring';

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
}

/** Draws of an assessment code before giving up (a collision among 2^40 codes is already rare). */
const CODE_DRAWS = 5;

type HandleOnce = <T>(
  consumer: string,
  message: { eventId: string; key?: string },
  effect: (tx: Tx) => Promise<T>,
) => Promise<{ duplicate: boolean; result?: T }>;

/** The results service's use cases: scoring, the figures kept from student events, and the admin views. */
export function createResults(deps: { database: Database; handleOnce: HandleOnce; notifyOutbox(): void }) {
  const { database } = deps;
  const db = database.db;

  /** Records the scored result with a fresh assessment code, and its event, in the caller's transaction. */
  async function record(tx: Tx, s: Submission, version: AssessmentVersion): Promise<ResultRecord> {
    const scored = scoreSubmission(version, s.answers);
    for (let draw = 0; draw < CODE_DRAWS; draw++) {
      const result = await insertResult(tx, {
        attemptId: s.attemptId,
        studentId: s.studentId,
        student: { name: s.name, email: s.email },
        versionId: version.versionId,
        version: version.version,
        assessmentTitle: version.title,
        passingScore: version.passingScore,
        score: scored.score,
        totalPoints: scored.totalPoints,
        percentage: scored.percentage,
        passed: scored.passed,
        attemptNumber: s.attemptNumber,
        assessmentCode: newAssessmentCode(),
        startedAt: s.startedAt,
        completedAt: s.submittedAt,
        timeSpentMinutes: s.timeSpentMinutes,
        sections: scored.sections,
        answers: scored.answers,
      });
      if (result) {
        await enqueue(tx, { name: RESULT_RECORDED, payload: recordedPayload(result) });
        return result;
      }
      const existing = await resultOfAttempt(tx, s.attemptId);
      if (existing) return existing;
    }
    throw new Error('no free assessment code after several draws');
  }

  return {
    /** Keeps a published version; `activatedAt` when the event makes it the active one. */
    async keepVersion(version: AssessmentVersion, activatedAt: Date | null): Promise<void> {
      await saveVersion(db, version, activatedAt);
    },

    /**
     * Scores a submission once per attempt, whatever the redeliveries (the event id and the attempt id are both
     * keys of the inbox). Before the version's copy has arrived it throws `NotYetError`: the bus retries it.
     */
    async score(s: Submission, eventId: string): Promise<void> {
      await deps.handleOnce('results.attempt-submitted', { eventId, key: s.attemptId }, async (tx) => {
        if (await isErased(tx, s.studentId)) return;
        const version = await findVersion(tx, s.versionId);
        if (!version) throw notYet(`assessment version ${s.versionId} has not arrived yet`);
        await record(tx, s, version);
        await attemptScored(tx, {
          studentId: s.studentId,
          name: s.name,
          email: s.email,
          attemptNumber: s.attemptNumber,
        });
      });
    },

    async studentInvited(s: { studentId: string; name: string; email: string }): Promise<void> {
      await studentInvited(db, s);
    },

    async attemptStarted(s: { studentId: string; attemptNumber: number }): Promise<void> {
      await attemptStarted(db, s);
    },

    /** Erases the student's figures and results. The other services erase their own copies from the same event. */
    async studentDeleted(studentId: string): Promise<number> {
      return database.transaction((tx) => eraseStudent(tx, studentId));
    },

    async list(filter: ResultFilter, page: { page: number; limit: number }) {
      const [found, all] = await Promise.all([
        listResults(db, filter, { offset: (page.page - 1) * page.limit, limit: page.limit }),
        figures(db),
      ]);
      // Without a search the count is one of the kept figures.
      const total =
        found.total ??
        (filter.status === 'all'
          ? all.results
          : filter.status === 'passed'
            ? all.passed
            : all.results - all.passed);
      return {
        results: found.results,
        total,
        stats: {
          totalResults: all.results,
          passed: all.passed,
          failed: all.results - all.passed,
          averagePercentage: all.results > 0 ? Math.round(all.percentageSum / all.results) : 0,
          passRate: percentOf(all.passed, all.results),
        },
      };
    },

    /** The result with the version the student took (its copy is never deleted). */
    async detail(id: string): Promise<{ result: ResultRecord; version: AssessmentVersion | undefined }> {
      const result = await findResult(db, id);
      if (!result) throw notFound(RESULT_NOT_FOUND_MESSAGE, 'result_not_found');
      return { result, version: await findVersion(db, result.versionId) };
    },

    async remove(id: string, actorId: string): Promise<void> {
      await database.transaction(async (tx) => {
        const gone = await deleteResult(tx, id);
        if (!gone) throw notFound(RESULT_NOT_FOUND_MESSAGE, 'result_not_found');
        await enqueue(tx, { name: RESULT_DELETED, payload: deletedPayload(gone, actorId) });
        await audit(tx, { actorId, action: 'result.deleted', resultId: id, studentId: gone.studentId });
      });
      deps.notifyOutbox();
    },

    async resendCertificate(id: string, actorId: string): Promise<void> {
      await database.transaction(async (tx) => {
        const result = await findResult(tx, id);
        if (!result) throw notFound(RESULT_NOT_FOUND_MESSAGE, 'result_not_found');
        if (!result.passed) throw conflict(NOT_PASSED_MESSAGE, 'not_passed');
        await enqueue(tx, { name: CERTIFICATE_RESEND_REQUESTED, payload: resendPayload(result, actorId) });
        await audit(tx, {
          actorId,
          action: 'certificate.resend-requested',
          resultId: id,
          studentId: result.studentId,
        });
      });
      deps.notifyOutbox();
    },

    async dashboard() {
      const [all, recent] = await Promise.all([figures(db), recentResults(db, 5)]);
      return {
        stats: {
          totalStudents: all.students,
          completedAssessments: all.results,
          passedAssessments: all.passed,
          pendingInvites: all.pendingInvites,
          passRate: percentOf(all.passed, all.results),
          inProgress: all.inProgress,
        },
        recentResults: recent,
      };
    },

    /** The filtered list in batches, for the streamed export. */
    exportBatches(filter: ResultFilter) {
      return eachResult(db, filter);
    },

    /** Item analysis of one version (the active one by default) over its results. */
    async analysis(versionNumber?: number) {
      const versions = await versionNumbers(db);
      const version =
        versionNumber === undefined ? await activeVersion(db) : await versionByNumber(db, versionNumber);
      if (!version) {
        if (versionNumber !== undefined) throw notFound(VERSION_NOT_FOUND_MESSAGE, 'version_not_found');
        return { version: undefined, versions, figures: undefined };
      }
      return { version, versions, figures: await analyseVersion(db, version.versionId) };
    },
  };
}

export type Results = ReturnType<typeof createResults>;

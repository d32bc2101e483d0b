import type { Language } from '@readiness/contracts';
import type { Tx } from '@readiness/kit/db';
import type { ResultCopy } from '../../data-access/result-copies-repository';
import {
  adminAnswerFile,
  admitWrite,
  removeAnswerFile,
  uploadAnswerFile,
  type Admission,
  type NewFile,
} from './answer-files';
import { studentAssessment } from './assessment-page';
import { recordPageActivity } from './attempt-timeline';
import { autosaveAnswers } from './autosave-answers';
import { createAttemptStreams } from './attempt-streams';
import { attemptsContext, type AttemptsDeps } from './context';
import { finaliseOverdue } from './finalise-overdue';
import { switchLanguage } from './language';
import { endLiveAttempt, extendLiveAttempt, listLiveAttempts } from './live-attempts';
import { dropResult, recordCertificate, recordResult, resultCopy, studentResults } from './result-copies';
import { startAttempt } from './start-attempt';
import { submitAttempt, type Submission } from './submit-attempt';

export type { Admission, NewFile } from './answer-files';
export type { SubmitOutcome } from './submit-attempt';
export { ANSWER_FILE_TYPES, FILE_TYPE_MESSAGE, answerPrefix, fileTooLarge } from './answer-files';
export * from './messages';
export type { AttemptJson } from './attempt-json';
export type { AttemptMessage, AttemptSink } from './attempt-streams';
export type { LiveAttempt } from './live-attempts';

/**
 * The student side of the service, one module per use case: the assessment a token sees, its attempts (start,
 * autosave, files, submit), the deadline job, and the copy of results the results service records. This binds
 * them to one context (the versions in memory and the waits for results are shared by all).
 */
export function createAttempts(
  deps: AttemptsDeps & { streams?: Omit<Parameters<typeof createAttemptStreams>[0], 'database' | 'logger'> },
) {
  const ctx = attemptsContext(deps);
  return {
    assessment: (token: string, browser?: Language | null) => studentAssessment(ctx, token, browser),
    start: (token: string, browser?: Language | null) => startAttempt(ctx, token, browser),
    switchLanguage: (token: string, language: Language) => switchLanguage(ctx, token, language),
    autosave: (token: string, input: Parameters<typeof autosaveAnswers>[2]) =>
      autosaveAnswers(ctx, token, input),
    activity: (token: string, input: Parameters<typeof recordPageActivity>[2]) =>
      recordPageActivity(ctx, token, input),
    admitWrite: (token: string, needs: { openAttempt: boolean }) => admitWrite(ctx, token, needs),
    uploadFile: (token: string, input: { attemptId: string; file: NewFile; admitted?: Admission }) =>
      uploadAnswerFile(ctx, token, input),
    removeFile: (token: string, questionId: string) => removeAnswerFile(ctx, token, questionId),
    submit: (token: string, input: Submission) => submitAttempt(ctx, token, input),
    results: (token: string) => studentResults(ctx, token),
    finaliseOverdue: (limit?: number) => finaliseOverdue(ctx, limit),
    recordResult,
    recordCertificate: (e: Parameters<typeof recordCertificate>[1]) => recordCertificate(ctx, e),
    /**
     * Wakes this replica's submits waiting for the attempt's result, after the copy committed: with the copy when
     * this delivery wrote it (a first sight), else they read what is recorded.
     */
    resultCopy,
    resultRecorded: (attemptId: string, copy: ResultCopy | null, written: boolean) =>
      ctx.resultWaits.wake(attemptId, written && copy ? { ...copy.body, certificateUrl: null } : undefined),
    dropResult: (tx: Tx, resultId: string) => dropResult(ctx, tx, resultId),
    adminFile: (q: Parameters<typeof adminAnswerFile>[1]) => adminAnswerFile(ctx, q),
    live: (q: Parameters<typeof listLiveAttempts>[1]) => listLiveAttempts(ctx, q),
    extend: (input: Parameters<typeof extendLiveAttempt>[1]) => extendLiveAttempt(ctx, input),
    end: (input: Parameters<typeof endLiveAttempt>[1]) => endLiveAttempt(ctx, input),
    /** The students' pages following their attempt (server-sent events). */
    streams: createAttemptStreams({ database: deps.database, logger: deps.logger, ...deps.streams }),
  };
}

export type Attempts = ReturnType<typeof createAttempts>;

import type { Tx } from '@readiness/kit/db';
import { notYet } from '@readiness/kit/errors';
import { enqueue } from '@readiness/kit/outbox';
import { insertResult, resultOfAttempt } from '../data-access/results-repository';
import { attemptScored, isErased } from '../data-access/students-repository';
import { findVersion } from '../data-access/versions-repository';
import { titleIn, type AssessmentVersion } from './assessment';
import { newAssessmentCode } from './assessment-code';
import { RESULT_RECORDED, recordedPayload } from './events';
import type { ResultRecord } from './result';
import type { ResultsDeps, Submission } from './results';
import { scoreSubmission } from './scoring';

/** Draws of an assessment code before giving up (a collision among 2^40 codes is already rare). */
const CODE_DRAWS = 5;

/** Records the scored result with a fresh assessment code, and its event, in the caller's transaction. */
async function record(tx: Tx, s: Submission, version: AssessmentVersion): Promise<ResultRecord> {
  const scored = scoreSubmission(version, s.answers, s.questionIds);
  for (let draw = 0; draw < CODE_DRAWS; draw++) {
    const result = await insertResult(tx, {
      attemptId: s.attemptId,
      studentId: s.studentId,
      student: { name: s.name, email: s.email },
      versionId: version.versionId,
      version: version.version,
      assessmentTitle: version.title,
      localizedTitle: titleIn(version, s.language),
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
      timeline: s.timeline,
      language: s.language,
      sections: scored.sections,
      answers: scored.answers,
    });
    if (result) {
      await enqueue(tx, { name: RESULT_RECORDED, payload: recordedPayload(result, s.ltiLaunchId) });
      return result;
    }
    const existing = await resultOfAttempt(tx, s.attemptId);
    if (existing) return existing;
  }
  throw new Error('no free assessment code after several draws');
}

/**
 * Scores a submission once per attempt, whatever the redeliveries (the event id and the attempt id are both
 * keys of the inbox). Before the version's copy has arrived it throws `NotYetError`: the bus retries it.
 */
export async function scoreAttempt(deps: ResultsDeps, s: Submission, eventId: string): Promise<void> {
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
}

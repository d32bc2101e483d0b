import type { EventPayload } from '@readiness/contracts';
import { timestampDate } from '@readiness/contracts';
import type { Tx } from '@readiness/kit/db';
import { notYet } from '@readiness/kit/errors';
import {
  deleteResult,
  insertResult,
  resultsOf,
  saveCertificateLink,
} from '../../data-access/attempts-repository';
import { isStudentId } from '../../data-access/students-repository';
import { tokenHash } from '../tokens';
import type { AttemptsContext } from './context';
import { attemptIdOrNull, invalidLink } from './rules';

/** The student's results, as their link shows them. */
export async function studentResults(ctx: AttemptsContext, token: string) {
  const found = await resultsOf(ctx.database.db, tokenHash(token));
  if (!found) throw invalidLink();
  return found;
}

/** Keeps the student's copy of a recorded result (in the consumer's once-only transaction). */
export async function recordResult(tx: Tx, e: EventPayload<'results.result.recorded.v1'>) {
  if (!attemptIdOrNull(e.attemptId) || !isStudentId(e.studentId)) return;
  const completedAt = e.completedAt ? timestampDate(e.completedAt) : new Date();
  await insertResult(tx, {
    id: e.resultId,
    attemptId: e.attemptId,
    studentId: e.studentId,
    passed: e.passed,
    completedAt,
    body: {
      _id: e.resultId,
      attemptId: e.attemptId,
      attemptNumber: e.attemptNumber,
      score: e.score,
      totalPoints: e.totalPoints,
      percentage: e.percentage,
      passed: e.passed,
      canRetake: e.canRetake,
      assessmentCode: e.assessmentCode,
      completedAt: completedAt.toISOString(),
      passingScore: e.passingScore,
      sections: e.sections.map((s) => ({
        id: s.sectionId,
        title: s.title,
        score: s.score,
        totalPoints: s.totalPoints,
        correct: s.correct,
        questions: s.questions,
        percentage: s.percentage,
      })),
    },
  });
}

/**
 * Keeps the certificate download link the report service issued with a result's copy. A link that arrives
 * before the copy is retried until the copy is there (NotYetError); one for an erased student is dropped.
 */
export async function recordCertificate(tx: Tx, e: EventPayload<'report.certificate.issued.v1'>) {
  if (!e.downloadUrl || !e.downloadUrlExpiresAt || !isStudentId(e.studentId)) return;
  const outcome = await saveCertificateLink(tx, {
    resultId: e.resultId,
    studentId: e.studentId,
    url: e.downloadUrl,
    expiresAt: timestampDate(e.downloadUrlExpiresAt),
  });
  if (outcome === 'missing') throw notYet('the result this certificate belongs to has not arrived yet');
}

export const dropResult = (tx: Tx, resultId: string) => deleteResult(tx, resultId);

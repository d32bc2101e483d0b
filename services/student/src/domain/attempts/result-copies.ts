import type { EventPayload } from '@readiness/contracts';
import { recordedResult, timestampDate } from '@readiness/contracts';
import type { Tx } from '@readiness/kit/db';
import type { FirstSight, Write } from '@readiness/kit/outbox';
import { notYet } from '@readiness/kit/errors';
import {
  type StudentResultBody,
  deleteResult,
  resultCopyWrites,
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

/** A recorded result's copy as the student sees it (api.md StudentResult), without its certificate link. */
export function resultCopy(e: EventPayload<'results.result.recorded.v1'>): StudentResultBody {
  const r = recordedResult(e);
  return {
    _id: r.resultId,
    attemptId: r.attemptId,
    attemptNumber: r.attemptNumber,
    score: r.score,
    totalPoints: r.totalPoints,
    percentage: r.percentage,
    passed: r.passed,
    canRetake: r.canRetake,
    assessmentCode: r.assessmentCode,
    completedAt: r.completedAt.toISOString(),
    passingScore: r.passingScore,
    sections: r.sections.map(({ sectionId: id, ...figures }) => ({ id, ...figures })),
  };
}

/**
 * The writes that keep the student's copy of a recorded result, for the consumer's once-only statement (none for
 * an event whose ids are not ours).
 */
export function recordResult(e: EventPayload<'results.result.recorded.v1'>, firstSight: FirstSight): Write[] {
  if (!attemptIdOrNull(e.attemptId) || !isStudentId(e.studentId)) return [];
  const r = recordedResult(e);
  return resultCopyWrites(
    {
      id: r.resultId,
      attemptId: r.attemptId,
      studentId: r.studentId,
      passed: r.passed,
      completedAt: r.completedAt,
      body: resultCopy(e),
    },
    firstSight,
  );
}

/**
 * Keeps the certificate download link the report service issued with a result's copy. A link that arrives
 * before the copy is retried until the copy is there (NotYetError); one for an erased student is dropped. Both
 * versions of the event carry the link. It needs no inbox row: the write is the same however often it is
 * delivered, and a link never replaces one that expires later (a redelivered older event changes nothing).
 */
export async function recordCertificate(
  ctx: AttemptsContext,
  e: EventPayload<'report.certificate.issued.v1' | 'report.certificate.issued.v2'>,
) {
  if (!e.downloadUrl || !e.downloadUrlExpiresAt || !isStudentId(e.studentId)) return;
  const outcome = await saveCertificateLink(ctx.database.db, {
    resultId: e.resultId,
    studentId: e.studentId,
    url: e.downloadUrl,
    expiresAt: timestampDate(e.downloadUrlExpiresAt),
  });
  if (outcome === 'missing') throw notYet('the result this certificate belongs to has not arrived yet');
}

export const dropResult = (tx: Tx, resultId: string) => deleteResult(tx, resultId);

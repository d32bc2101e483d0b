import type { EventPayload } from '@readiness/contracts';
import { recordedResult, timestampDate } from '@readiness/contracts';
import type { Tx } from '@readiness/kit/db';
import type { WritesOnly } from '@readiness/kit/outbox';
import { notYet } from '@readiness/kit/errors';
import {
  type ResultCopy,
  deleteResult,
  keepResultCopy,
  resultsOf,
  saveCertificateLink,
  shown,
} from '../../data-access/result-copies-repository';
import { isStudentId } from '../../data-access/students-repository';
import { expiryFromNow } from '../students/context';
import { tokenHash } from '../tokens';
import type { AttemptsContext } from './context';
import { attemptIdOrNull, invalidLink } from './invitation-link';

/** The student's results, as their link shows them. */
export async function studentResults(ctx: AttemptsContext, token: string) {
  const found = await resultsOf(ctx.database.db, tokenHash(token));
  if (!found) throw invalidLink();
  return found;
}

/**
 * A recorded result's copy as the student service keeps it (the body is api.md StudentResult without its
 * certificate link), decoded once per delivery; none for an event whose ids are not ours.
 */
export function resultCopy(e: EventPayload<'results.result.recorded.v1'>): ResultCopy | null {
  if (!attemptIdOrNull(e.attemptId) || !isStudentId(e.studentId)) return null;
  const r = recordedResult(e);
  return {
    id: r.resultId,
    attemptId: r.attemptId,
    studentId: r.studentId,
    passed: r.passed,
    completedAt: r.completedAt,
    body: shown({
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
    }),
  };
}

/** The writes that keep a result's copy, for the consumer's once-only statement (none for an event not ours). */
export const recordResult = (copy: ResultCopy | null): WritesOnly =>
  copy ? keepResultCopy(copy) : { writes: () => [] };

/**
 * Keeps the certificate download link the report service issued with a result's copy. A link that arrives
 * before the copy is retried until the copy is there (NotYetError); one for an erased student is dropped. It
 * needs no inbox row: the write is the same however often it is delivered, and a link never replaces one that
 * expires later (a redelivered older event changes nothing).
 */
export async function recordCertificate(
  ctx: AttemptsContext,
  e: EventPayload<'report.certificate.issued.v2'>,
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

/**
 * Drops a result's copy. A student left with no result and no attempt open or waiting for its score is invited
 * again (SPEC: Invited, not In Progress): their link opens the welcome page and its Start, as before their first
 * attempt. The link then stays open at least INVITE_TTL_DAYS from now, as a resend would keep it, so a student who
 * started within their invitation is not locked out by a deletion made later.
 */
export const dropResult = (ctx: Pick<AttemptsContext, 'inviteTtlDays'>, tx: Tx, resultId: string) =>
  deleteResult(tx, resultId, expiryFromNow(ctx));

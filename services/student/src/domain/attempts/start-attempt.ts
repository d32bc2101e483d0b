import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '@readiness/kit/errors';
import { enqueueWith } from '@readiness/kit/outbox';
import { insertAttempt, lockStanding, newAttemptRecord } from '../../data-access/attempts-repository';
import { ATTEMPT_STARTED, startedPayload } from '../events';
import { tokenHash } from '../tokens';
import type { AttemptsContext } from './context';
import {
  ALREADY_COMPLETED_MESSAGE,
  NO_ASSESSMENT_MESSAGE,
  attemptJson,
  attemptSeconds,
  usable,
} from './rules';

/** Starts an attempt, or returns the one in progress (two tabs, two devices): never two at once. */
export async function startAttempt(ctx: AttemptsContext, token: string) {
  const outcome = await ctx.database.transaction(async (tx) => {
    const standing = await lockStanding(tx, tokenHash(token));
    const student = usable(standing?.student);
    const { current, passed, newest, lastNumber, active, now } = standing!;
    if (current) return { created: false, attempt: current, files: current.files, now };
    if (passed) throw conflict(ALREADY_COMPLETED_MESSAGE, 'already_completed');
    if (newest?.status === 'submitted') {
      throw conflict('Your last submission is still being scored', 'awaiting_result');
    }
    if (!active) throw notFound(NO_ASSESSMENT_MESSAGE, 'no_assessment');
    // Started at the database clock's reading of this transaction, so the event carries the times the row keeps:
    // the attempt, the student marked started and the event are one statement.
    const attempt = newAttemptRecord({
      id: randomUUID(),
      studentId: student.id,
      attemptNumber: lastNumber + 1,
      versionId: active.versionId,
      startedAt: now,
      deadlineAt: new Date(
        now.getTime() + attemptSeconds(active.timeLimitMinutes, student.extraTimePercent) * 1000,
      ),
    });
    const { change, alongside } = insertAttempt(attempt);
    const event = { name: ATTEMPT_STARTED, payload: startedPayload(attempt, active.version) };
    if (!(await enqueueWith(tx, change, event, alongside))) {
      throw conflict('The assessment is being started in another window', 'start_conflict');
    }
    return { created: true, attempt, files: [], now };
  });
  if (outcome.created) ctx.notifyOutbox();
  ctx.attemptVersions.set(outcome.attempt.id, outcome.attempt.versionId);
  return {
    created: outcome.created,
    attempt: attemptJson(outcome.attempt, outcome.files),
    serverNow: outcome.now,
  };
}

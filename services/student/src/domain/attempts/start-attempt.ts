import { conflict, notFound } from '@readiness/kit/errors';
import { enqueue } from '@readiness/kit/outbox';
import { insertAttempt, lockStanding, markStarted } from '../../data-access/attempts-repository';
import { activeVersionSummary } from '../../data-access/versions-repository';
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
    const { current, passed, newest, lastNumber } = standing!;
    if (current) return { created: false, attempt: current, files: current.files, now: standing!.now };
    if (passed) throw conflict(ALREADY_COMPLETED_MESSAGE, 'already_completed');
    if (newest?.status === 'submitted') {
      throw conflict('Your last submission is still being scored', 'awaiting_result');
    }
    const active = await activeVersionSummary(tx);
    if (!active) throw notFound(NO_ASSESSMENT_MESSAGE, 'no_assessment');
    const attempt = await insertAttempt(tx, {
      studentId: student.id,
      attemptNumber: lastNumber + 1,
      versionId: active.versionId,
      limitSeconds: attemptSeconds(active.timeLimitMinutes, student.extraTimePercent),
    });
    if (!attempt) throw conflict('The assessment is being started in another window', 'start_conflict');
    await markStarted(tx, student.id);
    await enqueue(tx, { name: ATTEMPT_STARTED, payload: startedPayload(attempt, active.version) });
    return { created: true, attempt, files: [], now: attempt.startedAt };
  });
  if (outcome.created) ctx.notifyOutbox();
  ctx.attemptVersions.set(outcome.attempt.id, outcome.attempt.versionId);
  return {
    created: outcome.created,
    attempt: attemptJson(outcome.attempt, outcome.files),
    serverNow: outcome.now,
  };
}

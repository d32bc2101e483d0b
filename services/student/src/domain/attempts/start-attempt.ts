import { randomUUID } from 'node:crypto';
import type { Language } from '@readiness/contracts';
import { conflict, notFound } from '@readiness/kit/errors';
import { type AttemptFile, type AttemptRecord, newAttemptRecord } from '../../data-access/attempt-records';
import { insertAttempt, standing } from '../../data-access/attempts-repository';
import { ATTEMPT_STARTED, startedPayload } from '../events';
import { tokenHash } from '../tokens';
import type { AttemptsContext } from './context';
import { pageView } from '../versions';
import { drawPaper, givenIds } from './paper';
import { ALREADY_COMPLETED_MESSAGE, NO_ASSESSMENT_MESSAGE } from './messages';
import { attemptJson } from './attempt-json';
import { attemptSeconds } from './attempt-time';
import { usable } from './invitation-link';

/** Reads taken again when the standing changed between the read and the write (another tab's Start). */
const START_READS = 3;

/**
 * Starts an attempt, or returns the one in progress (two tabs, two devices): never two at once. Two statements:
 * where the student stands, then the attempt, the student marked started and the event in one, written only if
 * the standing still holds (else read again: a parallel Start's attempt is then the one returned). The attempt is
 * taken in the student's language, else the browser's (`browser`, from Accept-Language).
 */
export async function startAttempt(ctx: AttemptsContext, token: string, browser: Language | null = null) {
  const hash = tokenHash(token);
  const link = hash.toString('base64url');
  const flooded = ctx.waitingRoom?.recentlyWaiting(link);
  if (flooded) return { waiting: flooded };
  for (let read = 1; ; read++) {
    const found = await standing(ctx.database.db, hash);
    const student = usable(found?.student);
    const { current, passed, newest, lastNumber, active, now } = found!;
    if (current) {
      return started(ctx, { created: false, attempt: current, files: current.files, now });
    }
    if (passed) throw conflict(ALREADY_COMPLETED_MESSAGE, 'already_completed');
    if (newest?.status === 'submitted') {
      throw conflict('Your last submission is still being scored', 'awaiting_result');
    }
    if (!active) throw notFound(NO_ASSESSMENT_MESSAGE, 'no_assessment');
    // Nothing in progress: a new attempt waits its turn in the line when the product is busy (its clock not started).
    const admission = await ctx.waitingRoom?.admit(student.id, link);
    if (admission && !admission.admitted) return { waiting: admission };
    // The questions and their order, drawn now from a seed kept with the attempt (none when nothing is drawn).
    const paper = drawPaper(await ctx.versions.version(active.versionId));
    // Started at the database clock's reading of the standing, so the event carries the times the row keeps.
    const attempt = newAttemptRecord({
      id: randomUUID(),
      studentId: student.id,
      attemptNumber: lastNumber + 1,
      versionId: active.versionId,
      startedAt: now,
      deadlineAt: new Date(
        now.getTime() + attemptSeconds(active.timeLimitMinutes, student.extraTimePercent) * 1000,
      ),
      paper,
      language: student.language ?? browser,
    });
    const event = { name: ATTEMPT_STARTED, payload: startedPayload(attempt, active.version) };
    if (await insertAttempt(ctx.database.db, attempt, event)) {
      return started(ctx, { created: true, attempt, files: [], now });
    }
    if (read === START_READS) {
      throw conflict('The assessment is being started in another window', 'start_conflict');
    }
  }
}

/**
 * The attempt with the questions of its paper (`pageView`), in every language of its version: the page had none
 * of them before Start.
 */
async function started(
  ctx: AttemptsContext,
  s: {
    created: boolean;
    attempt: AttemptRecord;
    files: AttemptFile[];
    now: Date;
  },
) {
  ctx.attemptVersions.set(s.attempt.id, s.attempt.versionId);
  const view = await ctx.versions.studentView(s.attempt.versionId);
  return {
    created: s.created,
    attempt: attemptJson(s.attempt, s.files),
    assessment: pageView(view, givenIds(s.attempt.paper)),
    serverNow: s.now,
  };
}

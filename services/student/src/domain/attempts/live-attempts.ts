import { AppError, conflict } from '@readiness/kit/errors';
import { enqueue } from '@readiness/kit/outbox';
import { lockAttempt } from '../../data-access/attempts-repository';
import {
  extendAttempt,
  extensionRoom,
  liveAttempts,
  type ExtensionRoom,
  type LiveRow,
} from '../../data-access/live-repository';
import { audit } from '../../data-access/students-repository';
import { ATTEMPT_ADJUSTED, adjustedPayload } from '../events';
import type { AssessmentVersion } from '../versions';
import type { AttemptsContext } from './context';
import { endAttempt } from './end-attempt';
import { givenQuestions } from './paper';
import { attemptIdOrNull } from './invitation-link';
import { attemptNotFound } from './messages';
import { secondsLeft } from './attempt-time';

/** A page whose stream or autosave was heard from within this long is open; after it, offline. */
export const PAGE_GONE_AFTER_MS = 75_000;
/** No save for this long and the student is idle (the page is open, nothing is being answered). */
export const IDLE_AFTER_MS = 2 * 60_000;

export const attemptNotInProgress = () => conflict('This attempt is no longer in progress', 'attempt_closed');

export type Presence = 'active' | 'idle' | 'offline';

/** An attempt in progress as the Live screen shows it. */
export interface LiveAttempt {
  attemptId: string;
  studentId: string;
  name: string;
  email: string;
  attemptNumber: number;
  section: { number: number; title: string; count: number } | null;
  answered: number;
  total: number;
  startedAt: string;
  deadlineAt: string;
  timeLeftSeconds: number;
  savedAt: string | null;
  presence: Presence;
  idleMinutes: number;
  extraTimePercent: number;
  addedMinutes: number;
}

/**
 * Where the student stands: answered over the questions of their paper, from their saved answers and uploaded
 * files, and the section their page is on (the one it last reported reaching; null before it reported any).
 */
export function standingIn(
  v: AssessmentVersion,
  row: Pick<LiveRow, 'answers' | 'fileQuestionIds' | 'pageSectionId'> & { paper?: LiveRow['paper'] },
) {
  const files = new Set(row.fileQuestionIds);
  const given = new Set(row.answers.filter((a) => a.answer !== '').map((a) => a.questionId));
  const questions = givenQuestions(v.questions, row.paper ?? null);
  const answered = (q: AssessmentVersion['questions'][number]) =>
    q.type === 'file_upload' ? files.has(q.id) : given.has(q.id);
  const at = v.sections.findIndex((s) => s.id === row.pageSectionId);
  const section = v.sections[at];
  return {
    answered: questions.filter(answered).length,
    total: questions.length,
    section: section ? { number: at + 1, title: section.title, count: v.sections.length } : null,
  };
}

/**
 * Autosave is the heartbeat: a save (or the start) within two minutes is active; an open page with nothing saved
 * for longer is idle; a page neither saving nor holding its event stream is offline.
 */
export function presenceOf(row: Pick<LiveRow, 'startedAt' | 'savedAt' | 'pageSeenAt'>, now: Date) {
  const lastActive = Math.max(row.startedAt.getTime(), row.savedAt?.getTime() ?? 0);
  const lastHeard = Math.max(lastActive, row.pageSeenAt?.getTime() ?? 0);
  const quietMs = Math.max(0, now.getTime() - lastActive);
  const presence: Presence =
    now.getTime() - lastHeard > PAGE_GONE_AFTER_MS ? 'offline' : quietMs >= IDLE_AFTER_MS ? 'idle' : 'active';
  return { presence, idleMinutes: Math.floor(quietMs / 60_000) };
}

export async function listLiveAttempts(
  ctx: AttemptsContext,
  q: { search?: string; page: number; limit: number },
): Promise<{ attempts: LiveAttempt[]; total: number; now: Date }> {
  const found = await liveAttempts(ctx.database.db, {
    search: q.search,
    limit: q.limit,
    offset: (q.page - 1) * q.limit,
  });
  const attempts: LiveAttempt[] = [];
  for (const row of found.attempts) {
    const v = await ctx.versions.version(row.versionId);
    attempts.push({
      attemptId: row.attemptId,
      studentId: row.studentId,
      name: row.name,
      email: row.email,
      attemptNumber: row.attemptNumber,
      ...standingIn(v, row),
      startedAt: row.startedAt.toISOString(),
      deadlineAt: row.deadlineAt.toISOString(),
      timeLeftSeconds: secondsLeft(row.deadlineAt, found.now),
      savedAt: row.savedAt?.toISOString() ?? null,
      ...presenceOf(row, found.now),
      extraTimePercent: row.extraTimePercent,
      addedMinutes: Math.round(row.addedSeconds / 60),
    });
  }
  return { attempts, total: found.total, now: found.now };
}

/**
 * An extension past the most time an attempt can be given (`ADDED_TIME_MAX_MULTIPLE` times its time limit, all
 * extensions together): refused whole, saying the limit and what is left of it.
 */
function addedTimeLimit(room: ExtensionRoom, maxMultiple: number) {
  const cap = Math.floor(room.capSeconds / 60);
  const added = Math.round(room.addedSeconds / 60);
  const left = Math.max(0, Math.floor((room.capSeconds - room.addedSeconds) / 60));
  const minutes = cap === 1 ? 'minute' : 'minutes';
  const limit = `At most ${cap} ${minutes} can be added to an attempt (${maxMultiple} × its ${room.timeLimitMinutes}-minute time limit)`;
  const standing =
    added === 0
      ? ''
      : left === 0
        ? `; all ${cap} are added already`
        : `; ${added} ${added === 1 ? 'is' : 'are'} added already, so at most ${left} more`;
  return new AppError('extension_limit', `${limit}${standing}. Nothing was changed.`, 409);
}

/**
 * Adds minutes to an attempt in progress: its page moves its clock within seconds (its event stream), the audit
 * log records who did it. An attempt already ended, or past its deadline and grace (the deadline job is ending
 * it), answers 409 and changes nothing; so does time past the most an attempt can be given.
 */
export async function extendLiveAttempt(
  ctx: AttemptsContext,
  input: { attemptId: string; minutes: number; actorId: string },
) {
  const id = attemptIdOrNull(input.attemptId);
  if (!id) throw attemptNotFound();
  return ctx.database.transaction(async (tx) => {
    const a = await extendAttempt(tx, {
      attemptId: id,
      seconds: input.minutes * 60,
      graceSeconds: ctx.graceSeconds,
      maxMultiple: ctx.addedTimeMaxMultiple,
      actorId: input.actorId,
    });
    if (!a) {
      const room = await extensionRoom(tx, {
        attemptId: id,
        graceSeconds: ctx.graceSeconds,
        maxMultiple: ctx.addedTimeMaxMultiple,
      });
      if (!room) throw attemptNotFound();
      throw room.open ? addedTimeLimit(room, ctx.addedTimeMaxMultiple) : attemptNotInProgress();
    }
    await enqueue(tx, {
      name: ATTEMPT_ADJUSTED,
      payload: adjustedPayload({
        ...a,
        adjustment: 'extended',
        addedMinutes: input.minutes,
        actorId: input.actorId,
      }),
    });
    await audit(tx, {
      actorId: input.actorId,
      action: 'attempt.extended',
      studentId: a.studentId,
      details: { attemptId: id, minutes: input.minutes, deadlineAt: a.deadlineAt.toISOString() },
    });
    return a;
  });
}

/**
 * Ends an attempt in progress now, graded exactly as the deadline job grades one: from its last saved answers
 * (those saved before the deadline once the deadline has passed). A submit or the deadline job holding the
 * attempt is waited for, and then it is no longer in progress: 409.
 */
export async function endLiveAttempt(ctx: AttemptsContext, input: { attemptId: string; actorId: string }) {
  const id = attemptIdOrNull(input.attemptId);
  if (!id) throw attemptNotFound();
  return ctx.database.transaction(async (tx) => {
    const a = await lockAttempt(tx, id);
    if (!a) throw attemptNotFound();
    if (a.status !== 'in_progress') throw attemptNotInProgress();
    const late = a.now.getTime() > a.deadlineAt.getTime();
    const ended = await endAttempt(ctx, tx, a, a, {
      answers: late ? a.deadlineAnswers : a.answers,
      finalisedBy: 'admin',
      endedBy: input.actorId,
      late,
      idempotencyKey: null,
      now: a.now,
    });
    if (!ended) throw attemptNotInProgress();
    await enqueue(tx, {
      name: ATTEMPT_ADJUSTED,
      payload: adjustedPayload({
        attemptId: a.id,
        studentId: a.studentId,
        name: a.name,
        email: a.email,
        attemptNumber: a.attemptNumber,
        adjustment: 'ended',
        addedMinutes: 0,
        deadlineAt: a.now,
        actorId: input.actorId,
      }),
    });
    await audit(tx, {
      actorId: input.actorId,
      action: 'attempt.ended',
      studentId: a.studentId,
      details: { attemptId: id },
    });
    return { name: a.name, endedAt: a.now };
  });
}

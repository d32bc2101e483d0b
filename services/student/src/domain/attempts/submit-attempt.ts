import type { Tx } from '@readiness/kit/db';
import { conflict } from '@readiness/kit/errors';
import {
  lockStanding,
  resultOf,
  studentAttempt,
  upsertFile,
  type AttemptFile,
  type AttemptRecord,
  type StudentResultBody,
} from '../../data-access/attempts-repository';
import { tokenHash } from '../tokens';
import { checkAnswers, type Answer } from '../versions';
import { checkFileQuestion, removeObjects, storeFiles, type NewFile, type StoredFile } from './answer-files';
import type { AttemptsContext } from './context';
import { endAttempt } from './end-attempt';
import {
  ALREADY_COMPLETED_MESSAGE,
  attemptIdOrNull,
  attemptNotFound,
  closedAt,
  isOpen,
  usable,
} from './rules';

export type SubmitOutcome =
  | { kind: 'result'; result: StudentResultBody; serverNow: Date }
  | { kind: 'scoring'; attemptId: string; serverNow: Date };

export interface Submission {
  attemptId?: string;
  idempotencyKey?: string;
  answers: Answer[];
  files: NewFile[];
  /** Answer once the submission is committed, without waiting for its result (`Prefer: respond-async`). */
  respondAsync?: boolean;
}

/**
 * Ends the attempt with the student's answers (whole up to the grace after the deadline, else the last
 * autosave before the deadline), once: a repeat by attempt id or Idempotency-Key finds the ended attempt and
 * answers as the first did. Then waits a few seconds for the result.
 */
export async function submitAttempt(
  ctx: AttemptsContext,
  token: string,
  input: Submission,
): Promise<SubmitOutcome> {
  if (input.attemptId !== undefined && !attemptIdOrNull(input.attemptId)) {
    usable((await studentAttempt(ctx.database.db, tokenHash(token), null))?.student);
    throw attemptNotFound();
  }
  // Files go to the bucket before the transaction (object storage is not in it); a repeat removes them.
  const stored = input.files.length > 0 ? await storeSubmittedFiles(ctx, token, input) : [];
  const replaced: string[] = [];
  let ended: Ended;
  try {
    ended = await ctx.database.transaction((tx) => endSubmitted(ctx, tx, token, input, stored, replaced));
  } catch (err) {
    await removeObjects(
      ctx,
      stored.map((f) => f.objectKey),
    );
    throw err;
  }
  if (ended.fresh) {
    ctx.notifyOutbox();
    const used = new Set((ended.files ?? []).map((f) => f.objectKey));
    await removeObjects(ctx, [...replaced, ...stored.map((f) => f.objectKey).filter((k) => !used.has(k))]);
  } else {
    await removeObjects(
      ctx,
      stored.map((f) => f.objectKey),
    );
  }
  // Asked not to wait: a fresh submission has no result yet, a repeat answers with the one recorded, if any.
  const result = input.respondAsync
    ? ended.fresh
      ? undefined
      : await resultOf(ctx.database.db, ended.attempt.id)
    : await ctx.resultWaits.result(ended.attempt.id, ended.fresh);
  const serverNow = new Date();
  return result
    ? { kind: 'result', result, serverNow }
    : { kind: 'scoring', attemptId: ended.attempt.id, serverNow };
}

interface Ended {
  attempt: AttemptRecord;
  now: Date;
  /** This submit ended the attempt (false: a repeat, or the deadline job ended it first). */
  fresh: boolean;
  files?: AttemptFile[];
}

/** The submit's files, checked and stored when the attempt they belong to is open (else they are not kept). */
async function storeSubmittedFiles(ctx: AttemptsContext, token: string, input: Submission) {
  const found = await studentAttempt(ctx.database.db, tokenHash(token), input.attemptId ?? null);
  const student = usable(found?.student);
  const attempt = found!.attempt;
  if (!attempt || !isOpen(attempt, found!.now, ctx.graceSeconds)) return [];
  const v = await ctx.versions.version(attempt.versionId);
  for (const f of input.files) checkFileQuestion(v, f.questionId);
  return storeFiles(ctx, student.id, attempt.id, input.files);
}

/** In the submit's transaction: finds the attempt it ends (or the one it repeats) and ends it. */
async function endSubmitted(
  ctx: AttemptsContext,
  tx: Tx,
  token: string,
  input: Submission,
  stored: StoredFile[],
  replaced: string[],
): Promise<Ended> {
  const standing = await lockStanding(tx, tokenHash(token), input);
  const student = usable(standing?.student);
  const { byKey, byId, current, newest, passed, now } = standing!;
  if (input.attemptId !== undefined && !byKey && !byId) throw attemptNotFound();
  let target = byKey ?? byId ?? current;
  if (!target) {
    if (passed) throw conflict(ALREADY_COMPLETED_MESSAGE, 'already_completed');
    if (!newest) throw conflict('Start the assessment first', 'not_started');
    target = newest;
  }
  if (target.status !== 'in_progress') return { attempt: target, now, fresh: false };
  const late = now.getTime() > closedAt(target, ctx.graceSeconds);
  const v = await ctx.versions.version(target.versionId, tx);
  for (const f of late ? [] : stored) {
    const written = await upsertFile(tx, { ...f, attemptId: target.id, graceSeconds: ctx.graceSeconds });
    if (written.replacedKey) replaced.push(written.replacedKey);
  }
  const closed = await endAttempt(ctx, tx, target, student, {
    answers: late ? target.deadlineAnswers : checkAnswers(v, input.answers),
    finalisedBy: 'student',
    late,
    idempotencyKey: input.idempotencyKey ?? null,
  });
  // Ended meanwhile by the deadline job: this submit is a repeat of that ending.
  if (!closed) return { attempt: target, now, fresh: false };
  return { attempt: closed, now, fresh: true, files: closed.files };
}

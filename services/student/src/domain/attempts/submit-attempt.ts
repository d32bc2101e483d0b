import { conflict } from '@readiness/kit/errors';
import { resultOf, type StudentResultBody } from '../../data-access/result-copies-repository';
import { standing, studentAttempt } from '../../data-access/attempts-repository';
import { upsertFile } from '../../data-access/attempt-files-repository';
import type { AttemptRecord } from '../../data-access/attempt-records';
import { tokenHash } from '../tokens';
import { overSaved, type Answer } from '../versions';
import { checkFileQuestion, removeObjects, storeFiles, type NewFile } from './answer-files';
import type { AttemptsContext } from './context';
import { endAttempt } from './end-attempt';
import { ALREADY_COMPLETED_MESSAGE, attemptNotFound } from './messages';
import { attemptIdOrNull, usable } from './invitation-link';
import { closedAt, isOpen } from './attempt-time';

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

/** Reads taken again when the attempt changed between the read and the write (a file, the deadline job). */
const SUBMIT_READS = 3;

/**
 * Ends the attempt with the student's answers over the autosaved ones (up to the grace after the deadline, else
 * the last autosave before the deadline), once: a repeat by attempt id or Idempotency-Key finds the ended attempt
 * and answers as the first did. Files sent with the submit are recorded first, as uploads are. Then waits a few
 * seconds for the result.
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
  if (input.files.length > 0) await recordSubmittedFiles(ctx, token, input);
  const ended = await endSubmitted(ctx, token, input);
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
}

/**
 * The submit's files, checked, stored and recorded on the attempt when it is open, each as an upload is (one
 * statement that replaces the question's file); the objects of files not recorded (a repeat, a late submit) and
 * of the files they replaced are removed.
 */
async function recordSubmittedFiles(ctx: AttemptsContext, token: string, input: Submission) {
  const found = await studentAttempt(ctx.database.db, tokenHash(token), input.attemptId ?? null);
  const student = usable(found?.student);
  const attempt = found!.attempt;
  if (!attempt || !isOpen(attempt, found!.now, ctx.graceSeconds)) return;
  const v = await ctx.versions.version(attempt.versionId);
  for (const f of input.files) checkFileQuestion(v, f.questionId);
  const stored = await storeFiles(ctx, student.id, attempt.id, input.files);
  const unused: Array<string | undefined> = [];
  let recorded = 0;
  try {
    for (const f of stored) {
      const written = await upsertFile(ctx.database.db, {
        ...f,
        attemptId: attempt.id,
        graceSeconds: ctx.graceSeconds,
      });
      recorded++;
      unused.push(written.written ? written.replacedKey : f.objectKey);
    }
  } finally {
    unused.push(...stored.slice(recorded).map((f) => f.objectKey));
    await removeObjects(ctx, unused);
  }
}

/** Finds the attempt the submit ends (or the one it repeats) and ends it, reading again if it changed meanwhile. */
async function endSubmitted(ctx: AttemptsContext, token: string, input: Submission): Promise<Ended> {
  for (let read = 1; ; read++) {
    const found = await standing(ctx.database.db, tokenHash(token), input);
    const student = usable(found?.student);
    const { byKey, byId, current, newest, passed, now } = found!;
    if (input.attemptId !== undefined && !byKey && !byId) throw attemptNotFound();
    let target = byKey ?? byId ?? current;
    if (!target) {
      if (passed) throw conflict(ALREADY_COMPLETED_MESSAGE, 'already_completed');
      if (!newest) throw conflict('Start the assessment first', 'not_started');
      target = newest;
    }
    // Only one attempt is in progress at a time: an open target is the current one, read with its files.
    if (target.status !== 'in_progress' || target.id !== current?.id)
      return { attempt: target, now, fresh: false };
    const late = now.getTime() > closedAt(current, ctx.graceSeconds);
    const v = await ctx.versions.version(current.versionId);
    const closed = await endAttempt(ctx, ctx.database.db, current, student, {
      answers: late ? current.deadlineAnswers : overSaved(v, current.answers, input.answers),
      finalisedBy: 'student',
      late,
      idempotencyKey: input.idempotencyKey ?? null,
      now,
    });
    if (closed) return { attempt: closed, now, fresh: true };
    if (read === SUBMIT_READS) {
      throw conflict('The attempt changed while it was being submitted: submit again', 'submit_conflict');
    }
  }
}

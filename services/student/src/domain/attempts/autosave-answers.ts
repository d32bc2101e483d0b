import { saveAnswers, studentAttempt } from '../../data-access/attempts-repository';
import { tokenHash } from '../tokens';
import { checkAnswers, type Answer } from '../versions';
import { openAttempt, type AttemptsContext } from './context';
import { attemptClosed, isOpen } from './rules';

/** Keeps the newest autosave (by seq); an older one changes nothing and answers the newest seq held. */
export async function autosaveAnswers(
  ctx: AttemptsContext,
  token: string,
  input: { attemptId: string; seq: number; answers: Answer[] },
) {
  const { attempt } = await openAttempt(ctx, token, input.attemptId);
  const answers = checkAnswers(await ctx.versions.version(attempt.versionId), input.answers);
  const saved = await saveAnswers(ctx.database.db, {
    attemptId: attempt.id,
    seq: input.seq,
    answers,
    graceSeconds: ctx.graceSeconds,
  });
  if (saved) return { seq: saved.seq, savedAt: saved.savedAt, serverNow: saved.now };
  const now = await studentAttempt(ctx.database.db, tokenHash(token), attempt.id);
  const current = now?.attempt;
  if (!current || !isOpen(current, now.now, ctx.graceSeconds)) throw attemptClosed();
  return { seq: current.seq, savedAt: current.savedAt ?? current.startedAt, serverNow: now.now };
}

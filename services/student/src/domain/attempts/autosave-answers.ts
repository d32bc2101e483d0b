import { saveAnswers, studentAttempt } from '../../data-access/attempts-repository';
import { tokenHash } from '../tokens';
import { checkAnswers, type Answer } from '../versions';
import { openAttempt, type AttemptsContext } from './context';
import { attemptClosed } from './messages';
import { isOpen } from './attempt-time';

type Saved = NonNullable<Awaited<ReturnType<typeof saveAnswers>>>;
const reply = (saved: Saved) => ({ seq: saved.seq, savedAt: saved.savedAt, serverNow: saved.now });

/**
 * Keeps the newest autosave (by seq); an older one changes nothing and answers the newest seq held. Only the
 * questions the attempt was given may be answered: another of the version's (sent by hand) is a 400 that changes
 * nothing. When this replica knows the attempt's version (it started or saved the attempt before) and the answers
 * fit it, the whole autosave is one statement that writes only for the link's own open attempt and the questions
 * on its paper; anything else (a first save here, answers that do not fit, a save that wrote nothing) takes the
 * checks one by one, so every refusal is the same.
 */
export async function autosaveAnswers(
  ctx: AttemptsContext,
  token: string,
  input: { attemptId: string; seq: number; answers: Answer[] },
) {
  const save = (answers: Answer[], owner?: Buffer) =>
    saveAnswers(ctx.database.db, {
      attemptId: input.attemptId,
      seq: input.seq,
      answers,
      questionIds: input.answers.map((a) => a.questionId),
      graceSeconds: ctx.graceSeconds,
      owner,
    });
  const known = ctx.attemptVersions.get(input.attemptId);
  const fitting = known ? fitOrUndefined(await ctx.versions.version(known), input.answers) : undefined;
  const quick = fitting && (await save(fitting, tokenHash(token)));
  if (quick) return reply(quick);

  const opened = await openAttempt(ctx, token, input.attemptId);
  const { attempt } = opened;
  const answers = checkAnswers(await ctx.versions.version(attempt.versionId), input.answers, attempt.paper);
  // An older sequence than the one held, on an attempt just seen open: nothing to write.
  if (attempt.seq >= input.seq) {
    return { seq: attempt.seq, savedAt: attempt.savedAt ?? attempt.startedAt, serverNow: opened.now };
  }
  const saved = await save(answers);
  if (saved) return reply(saved);
  // Closed or overtaken in the meantime: say which.
  const now = await studentAttempt(ctx.database.db, tokenHash(token), attempt.id);
  const current = now?.attempt;
  if (!current || !isOpen(current, now.now, ctx.graceSeconds)) throw attemptClosed();
  return { seq: current.seq, savedAt: current.savedAt ?? current.startedAt, serverNow: now.now };
}

/** The answers checked against the version, or undefined when they do not fit it (the slow path says why). */
function fitOrUndefined(version: Parameters<typeof checkAnswers>[0], answers: Answer[]) {
  try {
    return checkAnswers(version, answers);
  } catch {
    return undefined;
  }
}

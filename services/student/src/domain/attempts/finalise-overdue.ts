import { anyOverdue, claimOverdue } from '../../data-access/attempts-repository';
import type { AttemptsContext } from './context';
import { endAttempt } from './end-attempt';

/**
 * Finalises attempts whose deadline and grace passed with no submit, from their last autosave before the
 * deadline. Rows are claimed with SKIP LOCKED, so replicas running this at once never finalise one twice. With
 * none overdue (nearly always) it is one statement, not a transaction of three.
 */
export async function finaliseOverdue(ctx: AttemptsContext, limit = 100): Promise<number> {
  if (!(await anyOverdue(ctx.database.db, ctx.graceSeconds))) return 0;
  const count = await ctx.database.transaction(async (tx) => {
    const due = await claimOverdue(tx, ctx.graceSeconds, limit);
    for (const a of due) {
      await endAttempt(ctx, tx, a, a, {
        answers: a.deadlineAnswers,
        finalisedBy: 'deadline',
        late: true,
        idempotencyKey: null,
        now: a.now,
      });
    }
    return due.length;
  });
  return count;
}

import type { Database } from '@readiness/kit/db';
import { resultOf, type StudentResultBody } from '../../data-access/result-copies-repository';

export type ResultWaits = ReturnType<typeof createResultWaits>;

/**
 * Submits waiting for their result: woken at once when this replica's consumer records it (with the result it
 * recorded, so they read nothing), and looking now and then for one another replica recorded.
 */
export function createResultWaits(deps: { database: Database; resultWaitMs: number }) {
  type Waiter = (result?: StudentResultBody) => void;
  const waiters = new Map<string, Set<Waiter>>();

  function pause(attemptId: string, ms: number) {
    return new Promise<StudentResultBody | undefined>((resolve) => {
      const set = waiters.get(attemptId) ?? new Set();
      waiters.set(attemptId, set);
      const done: Waiter = (result) => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0) waiters.delete(attemptId);
        resolve(result);
      };
      const timer = setTimeout(done, ms);
      set.add(done);
    });
  }

  return {
    /**
     * Wakes this replica's submits waiting for the attempt's result, after its copy committed: with the copy as the
     * student sees it when this delivery wrote it, else they read it.
     */
    wake(attemptId: string, recorded?: StudentResultBody) {
      for (const w of waiters.get(attemptId) ?? []) w(recorded);
    },

    /** The attempt's result once the results service recorded it, waiting up to `resultWaitMs`. */
    async result(attemptId: string, fresh: boolean): Promise<StudentResultBody | undefined> {
      // A submission just committed has no result yet (its event is not even published): wait before the first look.
      if (fresh && deps.resultWaitMs === 0) return undefined;
      const until = Date.now() + deps.resultWaitMs;
      // The looks only find a result another replica recorded, so they are few (each is a statement, and at a
      // peak thousands of submits wait at the same time).
      let interval = 250;
      let look = !fresh;
      for (;;) {
        const result = look ? await resultOf(deps.database.db, attemptId) : undefined;
        look = true;
        const left = until - Date.now();
        if (result || left <= 0) return result;
        const recorded = await pause(attemptId, Math.min(interval, left));
        if (recorded) return recorded;
        interval = Math.min(interval * 2, 1_000);
      }
    },
  };
}

import { every } from '@readiness/kit/runtime';
import type { Attempts } from '../../domain/attempts';

/**
 * Finalises attempts nobody submitted once their deadline and grace passed, from the last autosave before the
 * deadline, so a closed laptop still gets a result. Every replica runs it; rows are claimed with SKIP LOCKED.
 */
export const deadlineJob = (attempts: Attempts, intervalMs: number) =>
  every('attempt-deadline', intervalMs, async () => {
    // Drain a backlog (after an outage) in batches before sleeping again.
    while ((await attempts.finaliseOverdue(100)) === 100);
  });

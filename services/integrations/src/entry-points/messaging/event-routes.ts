import { every } from '@readiness/kit/runtime';
import type { EventRoutes } from '../../domain/event-routes';

/** How often a replica settles the on-demand bindings from the configuration (a change settles them at once). */
const SETTLE_INTERVAL_MS = 60_000;
/**
 * The next try after a pass that could not settle them (at start, a broker not connected yet): 2 s, doubled after each
 * failure up to the interval, so a broker away for long is not asked every 2 s.
 */
const SETTLE_RETRY_MS = 2_000;

/**
 * The bindings of the webhook and grades queues settled from the configuration at start, and every minute after:
 * what a change could not unbind (a broker away when it committed, an endpoint the sender disabled) is unbound by
 * then, and what a broker lost with its data is bound again.
 */
export function settleJob(routes: EventRoutes) {
  let retryAt: Date | null = null;
  let failures = 0;
  return every(
    'event-routes',
    SETTLE_INTERVAL_MS,
    async () => {
      retryAt = new Date(Date.now() + Math.min(SETTLE_INTERVAL_MS, SETTLE_RETRY_MS * 2 ** failures));
      failures++;
      await routes.settle();
      retryAt = null;
      failures = 0;
    },
    { nextDue: async () => retryAt },
  );
}

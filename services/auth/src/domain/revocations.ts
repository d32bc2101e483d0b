import {
  createRevocationList,
  REVOCATIONS_FILLED_KEY,
  type KeyValueStore,
  type RevocationList,
} from '@readiness/kit/cache';
import type { Database } from '@readiness/kit/db';
import type { Logger } from '@readiness/kit/logger';
import { revocationsRepository as repo } from '../data-access/revocations-repository';

export interface DurableRevocations extends RevocationList {
  /** Refills the shared store when it has lost its fill mark (Redis restarted or flushed); one pass of a job. */
  refillWhenLost(): Promise<void>;
}

/**
 * Revocations that survive the loss of the shared store. Logout writes its session to auth's database before the
 * store; disable and password changes write the admin's cutoff (`tokens_valid_from`) in their own transaction.
 * Every verifier reads the store only, and refuses to answer while it lacks the fill mark; auth puts every
 * revocation in force back into the store, then the mark, at start and whenever the mark is gone.
 */
export function createDurableRevocations(deps: {
  database: Database;
  store: KeyValueStore;
  /** The longest a token lives: a revocation older than that covers no live token. */
  tokenLifetimeSeconds: number;
  logger: Logger;
}): DurableRevocations {
  const { database, store, tokenLifetimeSeconds, logger } = deps;

  const refill = async () => {
    const now = Date.now();
    const nowSeconds = Math.floor(now / 1000);
    const [cutoffs, tokens] = await Promise.all([
      repo.listCutoffsSince(database.db, nowSeconds - tokenLifetimeSeconds),
      repo.listInForce(database.db, new Date(now)),
    ]);
    for (const { id, cutoff } of cutoffs) {
      await cache.revokeSubjectBefore(id, cutoff, Math.max(1, cutoff + tokenLifetimeSeconds - nowSeconds));
    }
    for (const token of tokens) {
      const expires = Math.ceil(token.expiresAt.getTime() / 1000);
      if (token.kind === 'session') await cache.revokeSession(token.id, Math.max(1, expires - nowSeconds));
      else await cache.revoke(token.id, expires);
    }
    await repo.purgeExpired(database.db, new Date(now));
    // Last: a verifier that sees the mark sees every revocation above.
    await cache.markFilled();
    logger.info(
      { cutoffs: cutoffs.length, tokens: tokens.length },
      'revocation store filled from the database',
    );
  };

  const cache = createRevocationList(store, { refill });

  return {
    ...cache,

    async revokeSession(sid, ttlSeconds) {
      await repo.add(database.db, {
        kind: 'session',
        id: sid,
        expiresAt: new Date(Date.now() + ttlSeconds * 1000),
      });
      await cache.revokeSession(sid, ttlSeconds);
    },

    async revoke(jti, untilEpochSeconds) {
      if (untilEpochSeconds * 1000 <= Date.now()) return;
      await repo.add(database.db, { kind: 'token', id: jti, expiresAt: new Date(untilEpochSeconds * 1000) });
      await cache.revoke(jti, untilEpochSeconds);
    },

    async refillWhenLost() {
      if (!(await store.exists(REVOCATIONS_FILLED_KEY))) await refill();
    },
  };
}

import { AppError } from '../errors';
import type { KeyValueStore } from './key-value-store';

export interface RevocationList {
  /** Rejects token `jti` until `untilEpochSeconds` (its own expiry; after that it is invalid anyway). */
  revoke(jti: string, untilEpochSeconds: number): Promise<void>;
  isRevoked(jti: string): Promise<boolean>;
  /**
   * Every token of `subjectId` issued before `epochSeconds` is revoked (after a disable or a password
   * reset). `ttlSeconds` should be the longest token lifetime: by then every such token has expired.
   * A later cutoff replaces an earlier one; an earlier one never weakens a later one.
   */
  revokeSubjectBefore(subjectId: string, epochSeconds: number, ttlSeconds: number): Promise<void>;
  /** The subject's cutoff in epoch seconds, or null when none is in force. */
  revokedBefore(subjectId: string): Promise<number | null>;
  /**
   * Revokes a whole session: every token carrying `sid`, the one presented at logout and every token renewed
   * from it. `ttlSeconds` should be the longest token lifetime: no token of the session outlives it.
   */
  revokeSession(sid: string, ttlSeconds: number): Promise<void>;
  /**
   * One check for a verified token: revoked by its id or its session, or issued before its subject's cutoff.
   * The store is a cache of auth's database: when it no longer holds the mark that it was filled (Redis
   * restarted or flushed, a process's memory store new), the list is refilled (`refill`) before it answers,
   * and it refuses to answer (503) rather than let a revoked token through.
   */
  isTokenRevoked(token: { jti?: string; sub?: string; iat?: number; sid?: string }): Promise<boolean>;
  /** Marks the store as holding every revocation in force (written last by whoever filled it). */
  markFilled(): Promise<void>;
}

export interface RevocationListOptions {
  now?: () => number;
  /**
   * Called, once at a time, when the store has lost its fill mark. Auth refills it from its database; every
   * other verifier waits for auth to (the default: the mark polled for `refillWaitMs`).
   */
  refill?: () => Promise<void>;
  /** How long the default `refill` waits for the mark; default 5 s. */
  refillWaitMs?: number;
}

/** The key whose presence says the store holds every revocation in force. */
export const REVOCATIONS_FILLED_KEY = 'revoked:filled';

function revocationsUnavailable(): AppError {
  return new AppError('revocations_unavailable', 'Sign-in checks are temporarily unavailable', 503);
}

const jtiKey = (jti: string) => `revoked:jti:${jti}`;
const subjectKey = (subjectId: string) => `revoked:sub:${subjectId}`;
const sessionKey = (sid: string) => `revoked:sid:${sid}`;

export function createRevocationList(
  store: KeyValueStore,
  options: RevocationListOptions = {},
): RevocationList {
  const now = options.now ?? Date.now;
  const nowSeconds = () => Math.floor(now() / 1000);
  const waitMs = options.refillWaitMs ?? 5_000;
  const awaitMark = async () => {
    const deadline = Date.now() + waitMs;
    while (!(await store.exists(REVOCATIONS_FILLED_KEY))) {
      if (Date.now() >= deadline) throw revocationsUnavailable();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const refill = options.refill ?? awaitMark;
  let refilling: Promise<void> | undefined;
  const refillOnce = () =>
    (refilling ??= refill().finally(() => {
      refilling = undefined;
    }));

  const check = async (
    { jti, sub, iat, sid }: { jti?: string; sub?: string; iat?: number; sid?: string },
    refilled: boolean,
  ): Promise<boolean> => {
    // Every key in one MGET: this runs on every admin request, and one round trip costs a fraction of four.
    const keys = [
      REVOCATIONS_FILLED_KEY,
      jti && jtiKey(jti),
      sid && sessionKey(sid),
      sub && subjectKey(sub),
    ].filter((k): k is string => Boolean(k));
    const values = await store.getMany(keys);
    if (values.shift() == null) {
      if (refilled) throw revocationsUnavailable();
      await refillOnce();
      return check({ jti, sub, iat, sid }, true);
    }
    const stored = sub ? values.pop() : null;
    if (values.some((v) => v !== null && v !== undefined)) return true;
    if (stored === null || stored === undefined) return false;
    const cutoff = Number(stored);
    // A token without an issue time cannot prove it is newer than the cutoff.
    return iat === undefined || iat < cutoff;
  };

  const revokedBefore = async (subjectId: string): Promise<number | null> => {
    const value = await store.get(subjectKey(subjectId));
    return value === null ? null : Number(value);
  };

  const isRevoked = async (jti: string) => store.exists(jtiKey(jti));

  return {
    async revoke(jti, untilEpochSeconds) {
      const ttl = Math.ceil(untilEpochSeconds - nowSeconds());
      // A token past its expiry is rejected by its signature check already; nothing to remember.
      if (ttl <= 0) return;
      await store.set(jtiKey(jti), '1', ttl);
    },

    isRevoked,

    async revokeSubjectBefore(subjectId, epochSeconds, ttlSeconds) {
      const current = await revokedBefore(subjectId);
      if (current !== null && current > epochSeconds) return;
      await store.set(subjectKey(subjectId), String(Math.floor(epochSeconds)), ttlSeconds);
    },

    revokedBefore,

    async revokeSession(sid, ttlSeconds) {
      await store.set(sessionKey(sid), '1', ttlSeconds);
    },

    isTokenRevoked: (token) => check(token, false),

    markFilled: () => store.set(REVOCATIONS_FILLED_KEY, String(nowSeconds())),
  };
}

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
  /** One check for a verified token: revoked by its id or its session, or issued before its subject's cutoff. */
  isTokenRevoked(token: { jti?: string; sub?: string; iat?: number; sid?: string }): Promise<boolean>;
}

const jtiKey = (jti: string) => `revoked:jti:${jti}`;
const subjectKey = (subjectId: string) => `revoked:sub:${subjectId}`;
const sessionKey = (sid: string) => `revoked:sid:${sid}`;

export function createRevocationList(store: KeyValueStore, now: () => number = Date.now): RevocationList {
  const nowSeconds = () => Math.floor(now() / 1000);

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

    async isTokenRevoked({ jti, sub, iat, sid }) {
      // Every key in one MGET: this runs on every admin request, and one round trip costs a fraction of three.
      const keys = [jti && jtiKey(jti), sid && sessionKey(sid), sub && subjectKey(sub)].filter(
        (k): k is string => Boolean(k),
      );
      if (keys.length === 0) return false;
      const values = await store.getMany(keys);
      const stored = sub ? values.pop() : null;
      if (values.some((v) => v !== null && v !== undefined)) return true;
      if (stored === null || stored === undefined) return false;
      const cutoff = Number(stored);
      // A token without an issue time cannot prove it is newer than the cutoff.
      return iat === undefined || iat < cutoff;
    },
  };
}

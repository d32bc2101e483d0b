import type { Db } from '@readiness/kit/db';
import { gt, lt, sql } from 'drizzle-orm';
import { admins, revokedTokens } from './schema';

export interface RevokedToken {
  kind: 'session' | 'token';
  id: string;
  expiresAt: Date;
}

/** The revocations in force, as written by logout (sessions, tokens) and by disable or password changes (cutoffs). */
export const revocationsRepository = {
  async add(db: Db, entry: RevokedToken): Promise<void> {
    await db
      .insert(revokedTokens)
      .values(entry)
      .onConflictDoUpdate({
        target: [revokedTokens.kind, revokedTokens.id],
        set: { expiresAt: sql`greatest(${revokedTokens.expiresAt}, excluded.expires_at)` },
      });
  },

  async listInForce(db: Db, now: Date): Promise<RevokedToken[]> {
    return db
      .select({ kind: revokedTokens.kind, id: revokedTokens.id, expiresAt: revokedTokens.expiresAt })
      .from(revokedTokens)
      .where(gt(revokedTokens.expiresAt, now));
  },

  /** Admins whose cutoff (tokens issued before it are refused) may still cover a token that has not expired. */
  async listCutoffsSince(db: Db, sinceEpochSeconds: number): Promise<{ id: string; cutoff: number }[]> {
    return db
      .select({ id: admins.id, cutoff: admins.tokensValidFrom })
      .from(admins)
      .where(gt(admins.tokensValidFrom, sinceEpochSeconds));
  },

  async purgeExpired(db: Db, now: Date): Promise<void> {
    await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, now));
  },
};

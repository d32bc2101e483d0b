import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';

export interface RevokedToken {
  kind: 'session' | 'token';
  id: string;
  expiresAt: Date;
}

/** The revocations in force, as written by logout (sessions, tokens) and by disable or password changes (cutoffs). */
export const revocationsRepository = {
  async add(runner: Runner, entry: RevokedToken): Promise<void> {
    await runner.execute(
      sql`INSERT INTO revoked_tokens (kind, id, expires_at)
          VALUES (${entry.kind}, ${entry.id}, ${entry.expiresAt.toISOString()})
          ON CONFLICT (kind, id) DO UPDATE SET expires_at = greatest(revoked_tokens.expires_at, excluded.expires_at)`,
    );
  },

  async listInForce(runner: Runner, now: Date): Promise<RevokedToken[]> {
    const tokens = await rows<{ kind: RevokedToken['kind']; id: string; expires_at: Date | string }>(
      runner,
      sql`SELECT kind, id, expires_at FROM revoked_tokens WHERE expires_at > ${now.toISOString()}`,
    );
    return tokens.map((t) => ({ kind: t.kind, id: t.id, expiresAt: new Date(t.expires_at) }));
  },

  /** Admins whose cutoff (tokens issued before it are refused) may still cover a token that has not expired. */
  async listCutoffsSince(
    runner: Runner,
    sinceEpochSeconds: number,
  ): Promise<{ id: string; cutoff: number }[]> {
    const cutoffs = await rows<{ id: string; cutoff: string | number }>(
      runner,
      sql`SELECT id, tokens_valid_from AS cutoff FROM admins WHERE tokens_valid_from > ${sinceEpochSeconds}`,
    );
    // bigint: node-postgres hands it over as text.
    return cutoffs.map((c) => ({ id: c.id, cutoff: Number(c.cutoff) }));
  },

  async purgeExpired(runner: Runner, now: Date): Promise<void> {
    await runner.execute(sql`DELETE FROM revoked_tokens WHERE expires_at < ${now.toISOString()}`);
  },
};

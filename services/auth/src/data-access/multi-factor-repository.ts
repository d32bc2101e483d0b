import { rows, type Runner } from '@readiness/kit/db';
import { sql } from 'drizzle-orm';

/** An admin's authenticator app (see migration 0004); `confirmedAt` null while the enrolment awaits its first code. */
export interface TotpFactor {
  secret: string;
  confirmedAt: Date | null;
  lastTimeStep: number;
}

export type ChallengePurpose = 'verify' | 'enrol';

interface TotpRow {
  secret: string;
  confirmed_at: Date | string | null;
  last_time_step: string | number;
}

const toFactor = (r: TotpRow): TotpFactor => ({
  secret: r.secret,
  confirmedAt: r.confirmed_at === null ? null : new Date(r.confirmed_at),
  lastTimeStep: Number(r.last_time_step),
});

/** Second factors, their recovery codes, the challenges between password and code, and the policy. */
export const multiFactorRepository = {
  async findTotp(runner: Runner, adminId: string): Promise<TotpFactor | undefined> {
    const [row] = await rows<TotpRow>(
      runner,
      sql`SELECT secret, confirmed_at, last_time_step FROM admin_totp WHERE admin_id = ${adminId}`,
    );
    return row && toFactor(row);
  },

  /** A new enrolment replaces an unconfirmed one; none is started over a confirmed factor (false then). */
  async beginTotp(runner: Runner, adminId: string, secret: string): Promise<boolean> {
    const started = await rows<{ admin_id: string }>(
      runner,
      sql`INSERT INTO admin_totp (admin_id, secret) VALUES (${adminId}, ${secret})
          ON CONFLICT (admin_id) DO UPDATE SET secret = EXCLUDED.secret, last_time_step = 0, created_at = now()
            WHERE admin_totp.confirmed_at IS NULL
          RETURNING admin_id`,
    );
    return started.length > 0;
  },

  /**
   * Takes the code of `timeStep`: only when it is later than the last one taken, in one statement, so a code is
   * accepted once even when two requests bring it at the same moment. `confirm` also confirms a pending factor.
   */
  async takeTimeStep(runner: Runner, adminId: string, timeStep: number, confirm: boolean): Promise<boolean> {
    const confirmed = confirm ? sql`confirmed_at IS NULL` : sql`confirmed_at IS NOT NULL`;
    const taken = await rows<{ admin_id: string }>(
      runner,
      sql`UPDATE admin_totp SET last_time_step = ${timeStep}, confirmed_at = coalesce(confirmed_at, now())
          WHERE admin_id = ${adminId} AND ${confirmed} AND last_time_step < ${timeStep}
          RETURNING admin_id`,
    );
    return taken.length > 0;
  },

  /** Removes every factor and recovery code of the admin; true when there was a confirmed factor. */
  async removeAll(runner: Runner, adminId: string): Promise<boolean> {
    const removed = await rows<{ confirmed: boolean }>(
      runner,
      sql`DELETE FROM admin_totp WHERE admin_id = ${adminId} RETURNING confirmed_at IS NOT NULL AS confirmed`,
    );
    await runner.execute(sql`DELETE FROM admin_recovery_codes WHERE admin_id = ${adminId}`);
    return removed.some((r) => r.confirmed);
  },

  /** Removes the authenticator app only (another factor remains, and the recovery codes with it). */
  async removeTotp(runner: Runner, adminId: string): Promise<void> {
    await runner.execute(sql`DELETE FROM admin_totp WHERE admin_id = ${adminId}`);
  },

  async replaceRecoveryCodes(runner: Runner, adminId: string, hashes: Buffer[]): Promise<void> {
    await runner.execute(sql`DELETE FROM admin_recovery_codes WHERE admin_id = ${adminId}`);
    await runner.execute(
      sql`INSERT INTO admin_recovery_codes (admin_id, code_hash)
          VALUES ${sql.join(
            hashes.map((h) => sql`(${adminId}, ${h})`),
            sql`, `,
          )}`,
    );
  },

  /** Uses the code if it is the admin's and still unused: once, even under a parallel burst. */
  async useRecoveryCode(runner: Runner, adminId: string, hash: Buffer): Promise<boolean> {
    const used = await rows<{ admin_id: string }>(
      runner,
      sql`UPDATE admin_recovery_codes SET used_at = now()
          WHERE admin_id = ${adminId} AND code_hash = ${hash} AND used_at IS NULL
          RETURNING admin_id`,
    );
    return used.length > 0;
  },

  async recoveryCodesLeft(runner: Runner, adminId: string): Promise<number> {
    const [row] = await rows<{ n: number }>(
      runner,
      sql`SELECT count(*)::int AS n FROM admin_recovery_codes WHERE admin_id = ${adminId} AND used_at IS NULL`,
    );
    return row?.n ?? 0;
  },

  async addChallenge(
    runner: Runner,
    idHash: Buffer,
    adminId: string,
    purpose: ChallengePurpose,
    ttlSeconds: number,
  ): Promise<void> {
    await runner.execute(
      sql`INSERT INTO mfa_challenges (id_hash, admin_id, purpose, expires_at)
          VALUES (${idHash}, ${adminId}, ${purpose}, now() + make_interval(secs => ${ttlSeconds}))`,
    );
  },

  async findChallenge(
    runner: Runner,
    idHash: Buffer,
  ): Promise<{ adminId: string; purpose: ChallengePurpose } | undefined> {
    const [row] = await rows<{ admin_id: string; purpose: ChallengePurpose }>(
      runner,
      sql`SELECT admin_id, purpose FROM mfa_challenges WHERE id_hash = ${idHash} AND expires_at > now()`,
    );
    return row && { adminId: row.admin_id, purpose: row.purpose };
  },

  /** Removes the challenge as the session is issued; false when another request took it first. */
  async takeChallenge(runner: Runner, idHash: Buffer): Promise<boolean> {
    const taken = await rows<{ admin_id: string }>(
      runner,
      sql`DELETE FROM mfa_challenges WHERE id_hash = ${idHash} AND expires_at > now() RETURNING admin_id`,
    );
    return taken.length > 0;
  },

  async sweepChallenges(runner: Runner): Promise<void> {
    await runner.execute(sql`DELETE FROM mfa_challenges WHERE expires_at <= now()`);
  },

  async mfaRequired(runner: Runner): Promise<boolean> {
    const [row] = await rows<{ mfa_required: boolean }>(
      runner,
      sql`SELECT mfa_required FROM security_settings WHERE id`,
    );
    return row?.mfa_required ?? false;
  },

  async setMfaRequired(runner: Runner, required: boolean): Promise<void> {
    await runner.execute(sql`UPDATE security_settings SET mfa_required = ${required} WHERE id`);
  },
};

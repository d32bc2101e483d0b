import { randomUUID } from 'node:crypto';
import { rows, type Runner } from '@readiness/kit/db';
import { sql } from 'drizzle-orm';

/** An admin's passkey (see migration 0007). */
export interface PasskeyRecord {
  id: string;
  adminId: string;
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  signCount: number;
  transports: string[];
  name: string;
  backedUp: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type PasskeyPurpose = 'register' | 'second-factor' | 'sign-in' | 'step-up';

interface PasskeyRow {
  id: string;
  admin_id: string;
  credential_id: string;
  public_key: Buffer;
  sign_count: string | number;
  transports: string[];
  name: string;
  backed_up: boolean;
  created_at: Date | string;
  last_used_at: Date | string | null;
}

const COLUMNS = sql`id, admin_id, credential_id, public_key, sign_count, transports, name, backed_up, created_at,
  last_used_at`;

const toPasskey = (r: PasskeyRow): PasskeyRecord => ({
  id: r.id,
  adminId: r.admin_id,
  credentialId: r.credential_id,
  publicKey: new Uint8Array(r.public_key),
  signCount: Number(r.sign_count),
  transports: r.transports,
  name: r.name,
  backedUp: r.backed_up,
  createdAt: new Date(r.created_at),
  lastUsedAt: r.last_used_at === null ? null : new Date(r.last_used_at),
});

/** Passkeys and the challenges of their ceremonies. */
export const passkeysRepository = {
  async listFor(runner: Runner, adminId: string): Promise<PasskeyRecord[]> {
    const found = await rows<PasskeyRow>(
      runner,
      sql`SELECT ${COLUMNS} FROM admin_passkeys WHERE admin_id = ${adminId} ORDER BY created_at, id`,
    );
    return found.map(toPasskey);
  },

  async findByCredentialId(runner: Runner, credentialId: string): Promise<PasskeyRecord | undefined> {
    const [row] = await rows<PasskeyRow>(
      runner,
      sql`SELECT ${COLUMNS} FROM admin_passkeys WHERE credential_id = ${credentialId}`,
    );
    return row && toPasskey(row);
  },

  /** Adds the passkey; nothing (undefined) when its credential is already registered, to anyone. */
  async add(
    runner: Runner,
    passkey: Omit<PasskeyRecord, 'id' | 'createdAt' | 'lastUsedAt'>,
  ): Promise<PasskeyRecord | undefined> {
    const [row] = await rows<PasskeyRow>(
      runner,
      sql`INSERT INTO admin_passkeys
            (id, admin_id, credential_id, public_key, sign_count, transports, name, backed_up)
          VALUES (${randomUUID()}, ${passkey.adminId}, ${passkey.credentialId}, ${Buffer.from(passkey.publicKey)},
            ${passkey.signCount}, ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(passkey.transports)}::jsonb)), ${passkey.name},
            ${passkey.backedUp})
          ON CONFLICT (credential_id) DO NOTHING
          RETURNING ${COLUMNS}`,
    );
    return row && toPasskey(row);
  },

  /**
   * Records a use: the new counter is taken only when it is above the stored one, or when the authenticator keeps
   * none (both zero, as synced passkeys do). False when the counter went backwards: the key may have been cloned.
   */
  async recordUse(runner: Runner, id: string, signCount: number): Promise<boolean> {
    const used = await rows<{ id: string }>(
      runner,
      sql`UPDATE admin_passkeys SET sign_count = ${signCount}, last_used_at = now()
          WHERE id = ${id} AND (sign_count < ${signCount} OR (sign_count = 0 AND ${signCount} = 0))
          RETURNING id`,
    );
    return used.length > 0;
  },

  /** Removes one of the admin's passkeys; its name when it was there. */
  async remove(runner: Runner, adminId: string, id: string): Promise<string | undefined> {
    const [row] = await rows<{ name: string }>(
      runner,
      sql`DELETE FROM admin_passkeys WHERE admin_id = ${adminId} AND id = ${id} RETURNING name`,
    );
    return row?.name;
  },

  async removeAll(runner: Runner, adminId: string): Promise<number> {
    const removed = await rows<{ id: string }>(
      runner,
      sql`DELETE FROM admin_passkeys WHERE admin_id = ${adminId} RETURNING id`,
    );
    return removed.length;
  },

  async count(runner: Runner, adminId: string): Promise<number> {
    const [row] = await rows<{ n: number }>(
      runner,
      sql`SELECT count(*)::int AS n FROM admin_passkeys WHERE admin_id = ${adminId}`,
    );
    return row?.n ?? 0;
  },

  async addChallenge(
    runner: Runner,
    challenge: string,
    purpose: PasskeyPurpose,
    adminId: string | null,
    ttlSeconds: number,
  ): Promise<void> {
    await runner.execute(
      sql`INSERT INTO passkey_challenges (challenge, purpose, admin_id, expires_at)
          VALUES (${challenge}, ${purpose}, ${adminId}, now() + make_interval(secs => ${ttlSeconds}))`,
    );
  },

  /**
   * Takes the challenge a response answers, when it was handed out for this purpose (and this admin) and has not
   * expired: once, even when two responses bring it at the same moment.
   */
  async takeChallenge(
    runner: Runner,
    challenge: string,
    purpose: PasskeyPurpose,
    adminId: string | null,
  ): Promise<boolean> {
    const admin = adminId === null ? sql`admin_id IS NULL` : sql`admin_id = ${adminId}`;
    const taken = await rows<{ challenge: string }>(
      runner,
      sql`DELETE FROM passkey_challenges
          WHERE challenge = ${challenge} AND purpose = ${purpose} AND ${admin} AND expires_at > now()
          RETURNING challenge`,
    );
    return taken.length > 0;
  },

  async sweepChallenges(runner: Runner): Promise<void> {
    await runner.execute(sql`DELETE FROM passkey_challenges WHERE expires_at <= now()`);
  },
};

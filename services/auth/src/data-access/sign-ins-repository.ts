import { rows, type Runner } from '@readiness/kit/db';
import { sql } from 'drizzle-orm';

/** A sign-in through the provider, between the redirect and the session (see migration 0003). */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

interface SignInRow {
  stage: 'pending' | 'signed-in';
  state: string;
  nonce: string;
  code_verifier: string;
  return_to: string;
  admin_id: string | null;
}

/** The pending and completed sign-ins, each taken once. */
export const signInsRepository = {
  async begin(runner: Runner, bindingHash: Buffer, signIn: PendingSignIn, ttlSeconds: number): Promise<void> {
    await runner.execute(
      sql`INSERT INTO sso_sign_ins (binding_hash, stage, state, nonce, code_verifier, return_to, expires_at)
          VALUES (${bindingHash}, 'pending', ${signIn.state}, ${signIn.nonce}, ${signIn.codeVerifier},
            ${signIn.returnTo}, now() + make_interval(secs => ${ttlSeconds}))`,
    );
  },

  /**
   * The pending sign-in of this browser that the callback's `state` names, removed as it is read; none when absent,
   * expired, already taken or of another state (then it stays, for the callback that does carry its state).
   */
  async takePending(runner: Runner, bindingHash: Buffer, state: string): Promise<PendingSignIn | undefined> {
    const [row] = await rows<SignInRow>(
      runner,
      sql`DELETE FROM sso_sign_ins
          WHERE binding_hash = ${bindingHash} AND stage = 'pending' AND state = ${state} AND expires_at > now()
          RETURNING stage, state, nonce, code_verifier, return_to, admin_id`,
    );
    return (
      row && { state: row.state, nonce: row.nonce, codeVerifier: row.code_verifier, returnTo: row.return_to }
    );
  },

  /** The provider named this admin: the browser holding the cookie may take the session, once. */
  async completed(
    runner: Runner,
    bindingHash: Buffer,
    adminId: string,
    returnTo: string,
    ttlSeconds: number,
  ): Promise<void> {
    await runner.execute(
      sql`INSERT INTO sso_sign_ins (binding_hash, stage, state, nonce, code_verifier, return_to, admin_id, expires_at)
          VALUES (${bindingHash}, 'signed-in', '', '', '', ${returnTo}, ${adminId},
            now() + make_interval(secs => ${ttlSeconds}))`,
    );
  },

  async takeCompleted(
    runner: Runner,
    bindingHash: Buffer,
  ): Promise<{ adminId: string; returnTo: string } | undefined> {
    const [row] = await rows<SignInRow>(
      runner,
      sql`DELETE FROM sso_sign_ins
          WHERE binding_hash = ${bindingHash} AND stage = 'signed-in' AND expires_at > now()
          RETURNING stage, state, nonce, code_verifier, return_to, admin_id`,
    );
    return row?.admin_id ? { adminId: row.admin_id, returnTo: row.return_to } : undefined;
  },

  async sweep(runner: Runner): Promise<void> {
    await runner.execute(sql`DELETE FROM sso_sign_ins WHERE expires_at <= now()`);
  },
};

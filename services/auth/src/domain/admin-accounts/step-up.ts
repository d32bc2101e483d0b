import { AppError, badRequest, forbidden } from '@readiness/kit/errors';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { AdminRecord } from '../../data-access/admins-repository';
import { multiFactorRepository as mfa } from '../../data-access/multi-factor-repository';
import { passkeysRepository as passkeys } from '../../data-access/passkeys-repository';
import { sessionsRepository as sessions } from '../../data-access/sessions-repository';
import { audited, mayUsePassword, type AccountsContext, type Authenticated } from './context';
import { provedUntil, reauthenticationRequired } from './reauthentication';
import { timeStepOf, WRONG_CODE } from './multi-factor';
import { verifyPasskeyAnswer } from './passkeys';

/** The ways an admin can prove it is them again. */
export type StepUpMethod = 'password' | 'totp' | 'passkey';

export type StepUpProof = { password: string } | { code: string } | { passkey: AuthenticationResponseJSON };

/** What the Security page needs to ask for a proof: how, and until when the last one holds. */
export interface StepUpState {
  methods: StepUpMethod[];
  until: Date | null;
}

const WRONG_PASSWORD = 'The password is not correct.';

async function methodsOf(ctx: AccountsContext, admin: AdminRecord): Promise<StepUpMethod[]> {
  const db = ctx.database.db;
  // Not the password when the institution's provider signs the admin in: it is then not how they sign in.
  const methods: StepUpMethod[] = mayUsePassword(ctx, admin) ? ['password'] : [];
  if ((await mfa.findTotp(db, admin.id))?.confirmedAt) methods.push('totp');
  if ((await passkeys.count(db, admin.id)) > 0) methods.push('passkey');
  return methods;
}

export async function stepUpState(ctx: AccountsContext, actor: Authenticated): Promise<StepUpState> {
  return { methods: await methodsOf(ctx, actor.admin), until: await provedUntil(ctx, actor) };
}

/**
 * The proof itself: the password or a code counts against the same budgets as at sign-in (counted before it is
 * checked, so no burst checks more than the budget), a passkey's answer is taken once. The proof holds for this
 * session only, for `STEP_UP_MINUTES`.
 */
export async function reauthenticate(
  ctx: AccountsContext,
  actor: Authenticated,
  proof: StepUpProof,
  ip: string,
): Promise<StepUpState> {
  const { admin, claims } = actor;
  if (!claims.sid) {
    throw forbidden('Sign out and sign in again to make this change.', 'session_too_old');
  }
  let method: StepUpMethod;
  if ('password' in proof) {
    if (!mayUsePassword(ctx, admin)) {
      throw forbidden('Confirm with your authenticator app or a passkey instead.', 'password_sign_in_off');
    }
    await ctx.throttle.consumeAttempt(admin.email, ip, 'current-password');
    if (!(await ctx.hasher.compare(proof.password, admin.passwordHash))) {
      throw badRequest(WRONG_PASSWORD, 'wrong_password');
    }
    await ctx.throttle.recordSuccess(admin.email, ip);
    method = 'password';
  } else if ('code' in proof) {
    await ctx.secondFactorThrottle.consumeAttempt(admin.email, ip, 'second-factor');
    const factor = await mfa.findTotp(ctx.database.db, admin.id);
    const step = factor?.confirmedAt ? timeStepOf(ctx, factor.secret, proof.code) : undefined;
    // The code's step is taken: the same code cannot prove anything a second time, here or at sign-in.
    if (step === undefined || !(await mfa.takeTimeStep(ctx.database.db, admin.id, step, false))) {
      throw badRequest(WRONG_CODE, 'invalid_code');
    }
    await ctx.secondFactorThrottle.recordSuccess(admin.email, ip);
    method = 'totp';
  } else {
    try {
      await verifyPasskeyAnswer(ctx, ctx.database.db, proof.passkey, 'step-up', admin.id);
    } catch (err) {
      // A refused passkey is a wrong answer here, not an invalid session (401 would sign the admin out).
      if (err instanceof AppError && err.httpStatus === 401) throw badRequest(err.message, err.code);
      throw err;
    }
    method = 'passkey';
  }
  await ctx.database.transaction(async (tx) => {
    if (!(await sessions.reauthenticated(tx, admin.id, claims.sid!))) throw reauthenticationRequired();
    await audited(tx, admin, 'admin.reauthenticated', admin, { method });
  });
  return stepUpState(ctx, actor);
}

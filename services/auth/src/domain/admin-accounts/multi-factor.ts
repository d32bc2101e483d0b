import { createHash, randomBytes } from 'node:crypto';
import type { SignInMethod } from '@readiness/kit/auth';
import type { Database, Tx } from '@readiness/kit/db';
import { AppError, badRequest, conflict, forbidden, unauthorized } from '@readiness/kit/errors';
import { generateSecret, generateURI, verifySync } from 'otplib';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import QRCode from 'qrcode';
import { adminsRepository as repo, type AdminRecord } from '../../data-access/admins-repository';
import { multiFactorRepository as mfa } from '../../data-access/multi-factor-repository';
import { passkeysRepository as passkeys } from '../../data-access/passkeys-repository';
import type { IssuedToken } from '../credentials';
import { adminEvents } from '../events';
import { actorOf, audited, lockForChange, type AccountsContext, type Authenticated } from './context';
import { hasSecondFactor, verifyPasskeyAnswer } from './passkeys';
import { assertReauthenticated } from './reauthentication';

/** From a right password until its second factor: long enough to open the app, short enough to be worthless stolen. */
const CHALLENGE_SECONDS = 5 * 60;
const RECOVERY_CODE_COUNT = 10;
/** The name authenticator apps show next to the account. */
const TOTP_ISSUER = 'Readiness';
/** A code of the step before or after the server's clock is still taken (RFC 6238 §6: one step of drift). */
const CLOCK_TOLERANCE_SECONDS = 30;

/** What the password step answers instead of a session when a second factor is needed. */
export interface SecondFactorStep {
  mfaRequired: true;
  challenge: string;
  /** The admin has no factor yet and every admin must have one: they set up an authenticator app first. */
  enrol: boolean;
  /** The second factors the admin may answer with (recovery codes go with either). */
  methods: SecondFactorMethod[];
}

export type SecondFactorMethod = 'totp' | 'passkey';

export interface TotpEnrolment {
  /** The key written out (base32), for typing into an app that cannot scan. */
  secret: string;
  otpauthUrl: string;
  /** The otpauth URL as a QR code, a `data:image/svg+xml` URL. */
  qrCode: string;
}

export type SecondFactorProof =
  { code: string } | { recoveryCode: string } | { passkey: AuthenticationResponseJSON };

const digest = (value: string) => createHash('sha256').update(value).digest();

const CHALLENGE_EXPIRED = () =>
  unauthorized('Your sign-in has expired. Please sign in again.', 'mfa_challenge_expired');
export const WRONG_CODE = 'The code is not valid. Check your authenticator app and try again.';
const WRONG_RECOVERY_CODE = 'The recovery code is not valid or has already been used.';
const PASSKEY_FIRST = 'Set up your authenticator app first; passkeys are added from your Security page.';

/**
 * The step a code was made in, when it is right for the admin's key (kept sealed, like every secret at rest);
 * nothing otherwise. Only six digits are checked, so nothing but a code reaches the library.
 */
export function timeStepOf(ctx: AccountsContext, sealedSecret: string, code: string): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  let secret: string;
  try {
    secret = ctx.secrets.open(sealedSecret);
  } catch {
    // Sealed with another EVENT_SECRETS_KEY: no code can match; a super admin resets the admin's factor.
    ctx.logger.warn('an authenticator key does not open with EVENT_SECRETS_KEY; reset the admin');
    return undefined;
  }
  const result = verifySync({ secret, token: code, epochTolerance: CLOCK_TOLERANCE_SECONDS });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/** Ten codes of 12 base32 letters (60 bits each), grouped for reading: `abcd-efgh-ijkl`. */
function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const letters = [...randomBytes(12)].map((b) => alphabet[b % 32]).join('');
    return letters.match(/.{4}/g)!.join('-');
  });
}

/** Case, spaces and dashes as typed do not matter. */
const normalisedRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z2-7]/g, '');

export async function storeRecoveryCodes(runner: Tx | Database['db'], adminId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await mfa.replaceRecoveryCodes(
    runner,
    adminId,
    codes.map((c) => digest(normalisedRecoveryCode(c))),
  );
  return codes;
}

/**
 * Called by sign-in once the password is right: a challenge instead of a session when the admin has a second
 * factor, or has none while the policy requires one. Nothing when the password alone is enough.
 */
export async function secondFactorStep(
  ctx: AccountsContext,
  admin: AdminRecord,
): Promise<SecondFactorStep | undefined> {
  const db = ctx.database.db;
  const factor = await mfa.findTotp(db, admin.id);
  const methods: SecondFactorMethod[] = [];
  if (factor?.confirmedAt) methods.push('totp');
  if ((await passkeys.count(db, admin.id)) > 0) methods.push('passkey');
  const purpose = methods.length > 0 ? 'verify' : (await mfa.mfaRequired(db)) ? 'enrol' : undefined;
  if (!purpose) return undefined;
  const challenge = randomBytes(32).toString('base64url');
  await mfa.addChallenge(db, digest(challenge), admin.id, purpose, CHALLENGE_SECONDS);
  return {
    mfaRequired: true,
    challenge,
    enrol: purpose === 'enrol',
    methods: purpose === 'enrol' ? ['totp'] : methods,
  };
}

async function startEnrolment(ctx: AccountsContext, admin: AdminRecord): Promise<TotpEnrolment> {
  const secret = generateSecret();
  if (!(await mfa.beginTotp(ctx.database.db, admin.id, ctx.secrets.seal(secret)))) {
    throw conflict('An authenticator app is already set up', 'mfa_already_enabled');
  }
  const otpauthUrl = generateURI({ issuer: TOTP_ISSUER, label: admin.email, secret });
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, otpauthUrl, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** The admin the challenge was given to, while it lasts and the admin is active. */
export async function challengedAdmin(ctx: AccountsContext, challenge: string) {
  const found = await mfa.findChallenge(ctx.database.db, digest(challenge));
  const admin = found && (await repo.findById(ctx.database.db, found.adminId));
  if (!found || !admin || admin.status !== 'active') throw CHALLENGE_EXPIRED();
  return { admin, purpose: found.purpose };
}

/** During sign-in, for an admin the policy makes enrol: a new authenticator app key. */
export async function beginChallengeEnrolment(
  ctx: AccountsContext,
  challenge: string,
): Promise<TotpEnrolment> {
  const { admin, purpose } = await challengedAdmin(ctx, challenge);
  if (purpose !== 'enrol') throw conflict('An authenticator app is already set up', 'mfa_already_enabled');
  return startEnrolment(ctx, admin);
}

/** A second factor at sign-in as the audit log names it, and as the session's tokens record it (`amr`). */
const SECOND_FACTOR_AMR = {
  totp: 'otp',
  'recovery-code': 'recovery-code',
  passkey: 'passkey',
} as const satisfies Record<string, SignInMethod>;

/**
 * The second step of sign-in: a code of the admin's authenticator app (confirming it, for an admin enrolling
 * now) or one of their recovery codes. The attempt is counted per account and per address before anything is
 * checked; the code's step is taken and the challenge removed in the transaction that opens the session.
 */
export async function completeSecondFactor(
  ctx: AccountsContext,
  challenge: string,
  proof: SecondFactorProof,
  ip: string,
  openSession: (
    runner: Tx | Database['db'],
    admin: AdminRecord,
    methods: SignInMethod[],
  ) => Promise<{ token: IssuedToken; admin: AdminRecord }>,
): Promise<{ token: IssuedToken; admin: AdminRecord; recoveryCodes?: string[] }> {
  const { admin, purpose } = await challengedAdmin(ctx, challenge);
  try {
    await ctx.secondFactorThrottle.consumeAttempt(admin.email, ip, 'second-factor');
  } catch (err) {
    // Too many wrong codes: the lockout is in the audit log (each refused attempt while it lasts, with its wait).
    if (err instanceof AppError && err.httpStatus === 429) {
      await refusedSecondFactor(ctx, admin, 'admin.mfa-locked-out', { ...err.details, address: ip });
    }
    throw err;
  }
  const enrol = purpose === 'enrol';
  const result = await ctx.database
    .transaction(async (tx) => {
      let recoveryCodes: string[] | undefined;
      let method: keyof typeof SECOND_FACTOR_AMR;
      if ('recoveryCode' in proof) {
        const hash = digest(normalisedRecoveryCode(proof.recoveryCode));
        if (enrol || !(await mfa.useRecoveryCode(tx, admin.id, hash))) {
          throw unauthorized(WRONG_RECOVERY_CODE, 'invalid_recovery_code');
        }
        await audited(tx, admin, 'admin.mfa-recovery-code-used', admin, {
          left: await mfa.recoveryCodesLeft(tx, admin.id),
        });
        method = 'recovery-code';
      } else if ('passkey' in proof) {
        if (enrol) throw unauthorized(PASSKEY_FIRST, 'passkey_not_verified');
        await verifyPasskeyAnswer(ctx, tx, proof.passkey, 'second-factor', admin.id);
        method = 'passkey';
      } else {
        const factor = await mfa.findTotp(tx, admin.id);
        const usable = factor && (enrol ? !factor.confirmedAt : factor.confirmedAt);
        const step = usable ? timeStepOf(ctx, factor.secret, proof.code) : undefined;
        if (step === undefined || !(await mfa.takeTimeStep(tx, admin.id, step, enrol))) {
          throw unauthorized(WRONG_CODE, 'invalid_code');
        }
        if (enrol) {
          recoveryCodes = await storeRecoveryCodes(tx, admin.id);
          await audited(tx, admin, 'admin.mfa-enrolled', admin, { method: 'totp', atSignIn: true });
          await adminEvents.factorChanged(tx, admin, 'authenticator-added', admin);
        }
        method = 'totp';
      }
      if (!(await mfa.takeChallenge(tx, digest(challenge)))) throw CHALLENGE_EXPIRED();
      await audited(tx, admin, 'admin.signed-in', admin, { method: `password+${method}` });
      return { ...(await openSession(tx, admin, ['pwd', SECOND_FACTOR_AMR[method]])), recoveryCodes };
    })
    .catch(async (err: unknown) => {
      // A wrong code rolls the transaction back: its audit entry is written after, on its own.
      const code = err instanceof AppError ? WRONG_SECOND_FACTOR[err.code] : undefined;
      if (code)
        await refusedSecondFactor(ctx, admin, 'admin.mfa-code-refused', { method: code, address: ip });
      throw err;
    });
  await ctx.secondFactorThrottle.recordSuccess(admin.email, ip);
  return result.recoveryCodes ? result : { token: result.token, admin: result.admin };
}

/** The refusals of a second factor the audit log keeps, by the error's code: which factor was wrong. */
const WRONG_SECOND_FACTOR: Record<string, string> = {
  invalid_code: 'totp',
  invalid_recovery_code: 'recovery-code',
};

/** A wrong second factor, or the lockout wrong ones caused, in the audit log: nobody signed in, so no actor. */
const refusedSecondFactor = (
  ctx: AccountsContext,
  admin: AdminRecord,
  action: 'admin.mfa-code-refused' | 'admin.mfa-locked-out',
  details: Record<string, unknown>,
) => repo.addAudit(ctx.database.db, { actor: null, action, target: actorOf(admin), details });

/** What the admin's own security page shows. */
export async function securityStatus(ctx: AccountsContext, admin: AdminRecord) {
  const db = ctx.database.db;
  const factor = await mfa.findTotp(db, admin.id);
  const own = await passkeys.listFor(db, admin.id);
  return {
    totp: factor?.confirmedAt ? { enabledAt: factor.confirmedAt } : null,
    passkeys: own.map((p) => ({
      id: p.id,
      name: p.name,
      createdAt: p.createdAt,
      lastUsedAt: p.lastUsedAt,
      synced: p.backedUp,
    })),
    recoveryCodesLeft: factor?.confirmedAt || own.length > 0 ? await mfa.recoveryCodesLeft(db, admin.id) : 0,
    required: await mfa.mfaRequired(db),
  };
}

/** From the admin's own security page: a new key, which counts once a first code confirms it. */
export async function beginTotpEnrolment(ctx: AccountsContext, actor: Authenticated): Promise<TotpEnrolment> {
  await assertReauthenticated(ctx, actor);
  return startEnrolment(ctx, actor.admin);
}

/** A code from the app just set up confirms it; the answer holds the recovery codes, shown this once. */
export async function confirmTotpEnrolment(
  ctx: AccountsContext,
  actor: Authenticated,
  code: string,
  ip: string,
): Promise<string[]> {
  await assertReauthenticated(ctx, actor);
  const { admin } = actor;
  await ctx.secondFactorThrottle.consumeAttempt(admin.email, ip, 'second-factor');
  const factor = await mfa.findTotp(ctx.database.db, admin.id);
  if (!factor) throw badRequest('Start setting up the authenticator app first', 'mfa_enrolment_missing');
  if (factor.confirmedAt) throw conflict('An authenticator app is already set up', 'mfa_already_enabled');
  const step = timeStepOf(ctx, factor.secret, code);
  const codes = await ctx.database.transaction(async (tx) => {
    if (step === undefined || !(await mfa.takeTimeStep(tx, admin.id, step, true))) {
      throw badRequest(WRONG_CODE, 'invalid_code');
    }
    await audited(tx, admin, 'admin.mfa-enrolled', admin, { method: 'totp' });
    await adminEvents.factorChanged(tx, admin, 'authenticator-added', admin);
    return storeRecoveryCodes(tx, admin.id);
  });
  await ctx.secondFactorThrottle.recordSuccess(admin.email, ip);
  return codes;
}

/**
 * Turns the authenticator app off, proved by a current code (itself a fresh proof of the person, so no step-up is
 * asked for as well); while the policy requires a second factor, only when
 * a passkey remains. The recovery codes go with the last factor.
 */
export async function disableTotp(
  ctx: AccountsContext,
  admin: AdminRecord,
  code: string,
  ip: string,
): Promise<void> {
  const passkeysLeft = await passkeys.count(ctx.database.db, admin.id);
  if (passkeysLeft === 0 && (await mfa.mfaRequired(ctx.database.db))) {
    throw forbidden(
      'Two-factor authentication is required for every admin and cannot be turned off',
      'mfa_required',
    );
  }
  await ctx.secondFactorThrottle.consumeAttempt(admin.email, ip, 'second-factor');
  const factor = await mfa.findTotp(ctx.database.db, admin.id);
  if (!factor?.confirmedAt) throw conflict('No authenticator app is set up', 'mfa_not_enabled');
  const step = timeStepOf(ctx, factor.secret, code);
  await ctx.database.transaction(async (tx) => {
    if (step === undefined || !(await mfa.takeTimeStep(tx, admin.id, step, false))) {
      throw badRequest(WRONG_CODE, 'invalid_code');
    }
    if (passkeysLeft === 0) await mfa.removeAll(tx, admin.id);
    else await mfa.removeTotp(tx, admin.id);
    await audited(tx, admin, 'admin.mfa-disabled', admin, { method: 'totp' });
    await adminEvents.factorChanged(tx, admin, 'authenticator-removed', admin);
  });
  await ctx.secondFactorThrottle.recordSuccess(admin.email, ip);
}

/**
 * Removes every passkey, the authenticator app and the recovery codes of `target` in the caller's transaction,
 * audited as `admin.mfa-reset` (with `reason`) and mailed to them when there was anything to remove.
 */
export async function removeEveryFactor(
  tx: Tx,
  actor: AdminRecord,
  target: AdminRecord,
  reason: 'reset' | 'password-reset',
): Promise<AdminRecord> {
  const hadPasskeys = (await passkeys.removeAll(tx, target.id)) > 0;
  const hadFactor = (await mfa.removeAll(tx, target.id)) || hadPasskeys;
  if (hadFactor) await adminEvents.factorChanged(tx, target, 'factors-reset', actor);
  if (reason === 'reset' || hadFactor) {
    await audited(tx, actor, 'admin.mfa-reset', target, { hadFactor, reason });
  }
  return { ...target, mfaEnabled: false };
}

/**
 * A super admin removes an admin's factors (a lost phone): their next sign-in asks for the password only. Their
 * own factors only with a fresh proof, as for any change of their own.
 */
export async function resetFactors(
  ctx: AccountsContext,
  actor: Authenticated,
  targetId: string,
): Promise<AdminRecord> {
  if (targetId === actor.admin.id) await assertReauthenticated(ctx, actor);
  return ctx.database.transaction(async (tx) => {
    const { target } = await lockForChange(tx, actor.admin.id, targetId);
    return removeEveryFactor(tx, actor.admin, target, 'reset');
  });
}

/** Ten new recovery codes in place of the old ones, which stop working; shown this once. */
export async function replaceRecoveryCodes(ctx: AccountsContext, actor: Authenticated): Promise<string[]> {
  await assertReauthenticated(ctx, actor);
  const { admin } = actor;
  return ctx.database.transaction(async (tx) => {
    if (!(await hasSecondFactor(tx, admin.id))) {
      throw conflict('Set up an authenticator app or a passkey first', 'mfa_not_enabled');
    }
    const codes = await storeRecoveryCodes(tx, admin.id);
    await audited(tx, admin, 'admin.recovery-codes-replaced', admin);
    await adminEvents.factorChanged(tx, admin, 'recovery-codes-replaced', admin);
    return codes;
  });
}

export async function setMfaRequired(
  ctx: AccountsContext,
  actor: AdminRecord,
  required: boolean,
): Promise<{ mfaRequired: boolean }> {
  await ctx.database.transaction(async (tx) => {
    await mfa.setMfaRequired(tx, required);
    await repo.addAudit(tx, {
      actor: actorOf(actor),
      action: 'settings.mfa-required-changed',
      target: null,
      details: { mfaRequired: required },
    });
  });
  return { mfaRequired: required };
}

export const securitySettings = async (ctx: AccountsContext) => ({
  mfaRequired: await mfa.mfaRequired(ctx.database.db),
});

/** Challenges that were never answered are worthless: swept by a job. */
export const sweepChallenges = (ctx: AccountsContext) => mfa.sweepChallenges(ctx.database.db);

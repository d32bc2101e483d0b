import { badRequest, conflict, forbidden, notFound, unauthorized } from '@readiness/kit/errors';
import type { Database, Tx } from '@readiness/kit/db';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { adminsRepository as repo, type AdminRecord } from '../../data-access/admins-repository';
import { multiFactorRepository as mfa } from '../../data-access/multi-factor-repository';
import {
  passkeysRepository as passkeys,
  type PasskeyPurpose,
  type PasskeyRecord,
} from '../../data-access/passkeys-repository';
import { adminEvents } from '../events';
import {
  ACCOUNT_DISABLED,
  audited,
  mayUsePassword,
  type AccountsContext,
  type Authenticated,
} from './context';
import { assertReauthenticated } from './reauthentication';

type Runner = Tx | Database['db'];

/** Who the browser's passkeys are made for: the site as its visitors reach it (from PUBLIC_ORIGIN). */
export interface RelyingParty {
  /** The host name without a port: passkeys are bound to it and to every port of it. */
  id: string;
  /** The exact origin the browser reports (scheme, host, port). */
  origin: string;
  /** The name the browser shows while a passkey is made. */
  name: string;
}

export const relyingPartyOf = (publicOrigin: string): RelyingParty => {
  const url = new URL(publicOrigin);
  return { id: url.hostname, origin: url.origin, name: 'Readiness' };
};

/** Long enough to find the phone or the key, short enough that a challenge is worthless later. */
const CEREMONY_SECONDS = 5 * 60;
/** A bound on what one account may keep: plenty for every device a person owns. */
const MAX_PASSKEYS = 10;
/** The transports a browser may name; anything else is not kept. */
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

const tooManyPasskeys = () =>
  conflict(`You already have ${MAX_PASSKEYS} passkeys. Remove one first.`, 'too_many_passkeys');

const PASSKEY_NOT_VERIFIED = 'The passkey could not be verified. Please try again.';
const UNKNOWN_PASSKEY =
  'This passkey is not registered with Readiness. Sign in with your email and password.';

/** The WebAuthn user handle: the admin's id as 16 bytes, never their e-mail. */
const userHandleOf = (adminId: string) => new Uint8Array(Buffer.from(adminId.replace(/-/g, ''), 'hex'));

const descriptorOf = (p: PasskeyRecord) => ({
  id: p.credentialId,
  transports: p.transports,
});

/** The challenge the browser's answer carries is taken for exactly this ceremony (and admin), once. */
const takesChallenge =
  (runner: Runner, purpose: PasskeyPurpose, adminId: string | null) => (challenge: string) =>
    passkeys.takeChallenge(runner, challenge, purpose, adminId);

/** Options handed to the browser: their challenge is kept for this ceremony (and admin) until it is answered. */
async function handedOut<O extends { challenge: string }>(
  ctx: AccountsContext,
  options: O,
  purpose: PasskeyPurpose,
  adminId: string | null,
): Promise<O> {
  await passkeys.addChallenge(ctx.database.db, options.challenge, purpose, adminId, CEREMONY_SECONDS);
  return options;
}

/** Whether the admin has any second factor: a confirmed authenticator app or a passkey. */
export async function hasSecondFactor(runner: Runner, adminId: string): Promise<boolean> {
  const totp = await mfa.findTotp(runner, adminId);
  return Boolean(totp?.confirmedAt) || (await passkeys.count(runner, adminId)) > 0;
}

/** From the admin's Security page: what the browser needs to make a new passkey for this account. */
export async function passkeyRegistrationOptions(
  ctx: AccountsContext,
  actor: Authenticated,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  // Asked before the device makes the key, so nobody holds a passkey the server then refuses.
  await assertReauthenticated(ctx, actor);
  const { admin } = actor;
  const existing = await passkeys.listFor(ctx.database.db, admin.id);
  if (existing.length >= MAX_PASSKEYS) throw tooManyPasskeys();
  const rp = ctx.relyingParty;
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: admin.email,
    userDisplayName: admin.name,
    userID: userHandleOf(admin.id),
    timeout: CEREMONY_SECONDS * 1000,
    attestationType: 'none',
    // The same authenticator twice would be one factor counted as two.
    excludeCredentials: existing.map(descriptorOf),
    // Kept on the authenticator (discoverable), so the passkey also signs in without a password.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  return handedOut(ctx, options, 'register', admin.id);
}

/**
 * The browser's new passkey, checked against the challenge handed out for this admin (once), the origin and the
 * site. An admin whose first second factor this is gets ten recovery codes, shown once, as with an app.
 */
export async function addPasskey(
  ctx: AccountsContext,
  actor: Authenticated,
  name: string,
  response: RegistrationResponseJSON,
  newRecoveryCodes: (runner: Runner) => Promise<string[]>,
): Promise<{ passkey: PasskeyRecord; recoveryCodes?: string[] }> {
  await assertReauthenticated(ctx, actor);
  const { admin } = actor;
  const rp = ctx.relyingParty;
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: takesChallenge(ctx.database.db, 'register', admin.id),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (err) {
    ctx.logger.info({ err: (err as Error).message }, 'a passkey registration was refused');
    throw badRequest(PASSKEY_NOT_VERIFIED, 'passkey_not_verified');
  }
  if (!verified.verified) throw badRequest(PASSKEY_NOT_VERIFIED, 'passkey_not_verified');
  const { credential, credentialBackedUp } = verified.registrationInfo;
  return ctx.database.transaction(async (tx) => {
    const hadFactor = await hasSecondFactor(tx, admin.id);
    if ((await passkeys.count(tx, admin.id)) >= MAX_PASSKEYS) throw tooManyPasskeys();
    const added = await passkeys.add(tx, {
      adminId: admin.id,
      credentialId: credential.id,
      publicKey: credential.publicKey,
      signCount: credential.counter,
      transports: (credential.transports ?? []).filter((t) => TRANSPORTS.has(t)),
      name,
      backedUp: credentialBackedUp,
    });
    if (!added) throw conflict('This passkey is already registered', 'passkey_already_registered');
    await audited(tx, admin, 'admin.mfa-enrolled', admin, { method: 'passkey', name });
    await adminEvents.factorChanged(tx, admin, 'passkey-added', admin, name);
    return hadFactor ? { passkey: added } : { passkey: added, recoveryCodes: await newRecoveryCodes(tx) };
  });
}

/**
 * Removes one of the admin's own passkeys. The last second factor stays while the policy requires one; with none
 * left, the recovery codes go too.
 */
export async function removePasskey(ctx: AccountsContext, actor: Authenticated, id: string): Promise<void> {
  await assertReauthenticated(ctx, actor);
  const { admin } = actor;
  await ctx.database.transaction(async (tx) => {
    const name = await passkeys.remove(tx, admin.id, id);
    if (name === undefined) throw notFound('Passkey not found', 'passkey_not_found');
    const factorLeft = await hasSecondFactor(tx, admin.id);
    if (!factorLeft && (await mfa.mfaRequired(tx))) {
      throw forbidden(
        'Two-factor authentication is required for every admin: keep at least one second factor',
        'mfa_required',
      );
    }
    if (!factorLeft) await mfa.removeAll(tx, admin.id);
    await audited(tx, admin, 'admin.mfa-disabled', admin, { method: 'passkey', name });
    await adminEvents.factorChanged(tx, admin, 'passkey-removed', admin, name);
  });
}

/**
 * A challenge for one of this admin's own passkeys: the second step of a sign-in, or a fresh proof (step-up) before
 * a change of a factor.
 */
export async function ownPasskeyOptions(
  ctx: AccountsContext,
  admin: AdminRecord,
  purpose: 'second-factor' | 'step-up',
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const own = await passkeys.listFor(ctx.database.db, admin.id);
  if (own.length === 0) throw conflict('No passkey is set up for this account', 'no_passkey');
  const options = await generateAuthenticationOptions({
    rpID: ctx.relyingParty.id,
    allowCredentials: own.map(descriptorOf),
    userVerification: 'preferred',
    timeout: CEREMONY_SECONDS * 1000,
  });
  return handedOut(ctx, options, purpose, admin.id);
}

/** For a sign-in with a passkey alone: a challenge any of the site's passkeys may answer. */
export async function passkeySignInOptions(
  ctx: AccountsContext,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({
    rpID: ctx.relyingParty.id,
    userVerification: 'required',
    timeout: CEREMONY_SECONDS * 1000,
  });
  return handedOut(ctx, options, 'sign-in', null);
}

/**
 * Checks a passkey's answer: the credential is registered (to `adminId`, for a second factor), the challenge was
 * handed out for this ceremony and is taken now, origin and site match, the signature is the credential's, the
 * person was verified on the device when signing in without a password, and the counter went forward. Answers
 * the passkey used; a refusal changes nothing but the challenge, which is gone.
 */
export async function verifyPasskeyAnswer(
  ctx: AccountsContext,
  runner: Runner,
  response: AuthenticationResponseJSON,
  purpose: 'second-factor' | 'sign-in' | 'step-up',
  adminId: string | null,
): Promise<PasskeyRecord> {
  const passkey = await passkeys.findByCredentialId(runner, response.id);
  if (!passkey || (adminId !== null && passkey.adminId !== adminId)) {
    throw unauthorized(
      purpose === 'sign-in' ? UNKNOWN_PASSKEY : PASSKEY_NOT_VERIFIED,
      'passkey_not_verified',
    );
  }
  const rp = ctx.relyingParty;
  let outcome;
  try {
    outcome = await verifyAuthenticationResponse({
      response,
      // Taken outside the caller's transaction: a refused answer never gives its challenge back.
      expectedChallenge: takesChallenge(ctx.database.db, purpose, adminId),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: passkey.publicKey,
        counter: passkey.signCount,
        transports: passkey.transports,
      },
      requireUserVerification: purpose === 'sign-in',
    });
  } catch (err) {
    ctx.logger.info({ err: (err as Error).message, purpose }, 'a passkey answer was refused');
    throw unauthorized(PASSKEY_NOT_VERIFIED, 'passkey_not_verified');
  }
  if (
    !outcome.verified ||
    !(await passkeys.recordUse(runner, passkey.id, outcome.authenticationInfo.newCounter))
  ) {
    throw unauthorized(PASSKEY_NOT_VERIFIED, 'passkey_not_verified');
  }
  return passkey;
}

/**
 * A sign-in with a passkey alone: the passkey is something the admin has, unlocked on the device by something
 * they are or know (user verification), so it is a sign-in with two factors, and a second one is not asked.
 */
export async function signInWithPasskey<Session>(
  ctx: AccountsContext,
  response: AuthenticationResponseJSON,
  openSession: (runner: Tx, admin: AdminRecord) => Promise<Session>,
): Promise<Session> {
  return ctx.database.transaction(async (tx) => {
    const passkey = await verifyPasskeyAnswer(ctx, tx, response, 'sign-in', null);
    const admin = await repo.findById(tx, passkey.adminId);
    if (!admin || admin.status !== 'active') {
      throw unauthorized(ACCOUNT_DISABLED, 'account_disabled');
    }
    // Where the institution signs its staff in through its provider, leaving the institution must end access:
    // a passkey kept here would outlive the provider's account, so only super admins keep this way in.
    if (!mayUsePassword(ctx, admin)) {
      throw forbidden(
        `Passkey sign-in is turned off for your account. Sign in with ${ctx.singleSignOn?.displayName} instead.`,
        'passkey_sign_in_off',
      );
    }
    await audited(tx, admin, 'admin.signed-in', admin, { method: 'passkey', passkey: passkey.name });
    return openSession(tx, admin);
  });
}

export const sweepPasskeyChallenges = (ctx: AccountsContext) => passkeys.sweepChallenges(ctx.database.db);

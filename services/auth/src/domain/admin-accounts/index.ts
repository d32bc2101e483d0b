import type { AdminTokenClaims } from '@readiness/kit/auth';
import { conflict } from '@readiness/kit/errors';
import {
  adminsRepository as repo,
  type AdminRecord,
  type AdminRole,
  type AdminStatus,
  type AuditEntry,
  type AuditQuery,
} from '../../data-access/admins-repository';
import { accountsContext, type AdminAccountsDeps, type Authenticated } from './context';
import { createAdmin, resetPassword, seedAdmin, setAdminStatus, updateAdmin } from './manage-admins';
import {
  beginChallengeEnrolment,
  beginTotpEnrolment,
  completeSecondFactor,
  confirmTotpEnrolment,
  disableTotp,
  replaceRecoveryCodes,
  resetFactors,
  securitySettings,
  securityStatus,
  setMfaRequired,
  storeRecoveryCodes,
  sweepChallenges,
  challengedAdmin,
  type SecondFactorProof,
} from './multi-factor';
import {
  addPasskey,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  removePasskey,
  ownPasskeyOptions,
  signInWithPasskey,
  sweepPasskeyChallenges,
} from './passkeys';
import { reauthenticate, stepUpState, type StepUpProof } from './step-up';
import { authenticate, changePassword, login, logout, openSession, refresh, warmUp } from './sessions';
import {
  endAllOwnSessions,
  endOwnSession,
  listOwnSessions,
  sweepSessions,
  type SessionClient,
} from './own-sessions';
import { beginSignIn, completeSignIn, sweepSignIns, takeSignInSession } from './single-sign-on';

export {
  ACCOUNT_DISABLED,
  ADMIN_CACHE_MS,
  ADMIN_NOT_FOUND,
  EMAIL_TAKEN,
  INVALID_CREDENTIALS,
  type AdminAccountsDeps,
  type Authenticated,
} from './context';
export { SESSION_NOT_FOUND, type OwnSession, type SessionClient } from './own-sessions';
export type { SecondFactorStep, TotpEnrolment } from './multi-factor';
export { REAUTHENTICATION_REQUIRED } from './reauthentication';
export type { StepUpMethod, StepUpProof, StepUpState } from './step-up';
export { relyingPartyOf, type RelyingParty } from './passkeys';
export { type SignInRefusal, type SingleSignOnSettings } from './single-sign-on';

/**
 * The use cases of the auth service, sessions and admin accounts (no Express and no SQL here), bound to one
 * context: the cache of admin rows they share.
 */
export function createAdminAccounts(deps: AdminAccountsDeps) {
  const ctx = accountsContext(deps);
  return {
    warmUp: () => warmUp(ctx),
    login: (email: string, password: string, ip: string, userAgent?: string) =>
      login(ctx, email, password, ip, userAgent),
    authenticate: (token: string) => authenticate(ctx, token),
    logout: (claims: AdminTokenClaims) => logout(ctx, claims),
    refresh: (actor: Authenticated) => refresh(ctx, actor),
    changePassword: (actor: Authenticated, currentPassword: string, newPassword: string, ip: string) =>
      changePassword(ctx, actor, currentPassword, newPassword, ip),
    listAdmins: () => repo.list(deps.database.db),
    createAdmin: (actor: AdminRecord, input: Parameters<typeof createAdmin>[2]) =>
      createAdmin(ctx, actor, input),
    updateAdmin: (
      actor: AdminRecord,
      targetId: string,
      input: { name: string; email: string; role: AdminRole },
    ) => updateAdmin(ctx, actor, targetId, input),
    setStatus: (actor: AdminRecord, targetId: string, status: AdminStatus) =>
      setAdminStatus(ctx, actor, targetId, status),
    resetPassword: (actor: AdminRecord, targetId: string) => resetPassword(ctx, actor, targetId),
    auditLog: (options: AuditQuery): Promise<AuditEntry[]> => repo.listAudit(deps.database.db, options),
    seed: (input: Parameters<typeof seedAdmin>[1]) => seedAdmin(ctx, input),
    signInOptions: () =>
      ({
        singleSignOn: deps.singleSignOn ? { name: deps.singleSignOn.displayName } : null,
        passwordSignIn: deps.sessionRules.passwordSignIn,
      }) as const,
    beginSignIn: (returnTo: string | undefined) => beginSignIn(ctx, returnTo),
    completeSignIn: (binding: string | undefined, callbackUrl: URL, address: string) =>
      completeSignIn(ctx, binding, callbackUrl, address),
    takeSignInSession: (binding: string | undefined, postLogoutRedirectUri: string, client?: SessionClient) =>
      takeSignInSession(ctx, binding, postLogoutRedirectUri, client),
    sweepSignIns: () => sweepSignIns(ctx),
    listOwnSessions: (actor: Authenticated) => listOwnSessions(ctx, actor),
    endOwnSession: (actor: Authenticated, sid: string) => endOwnSession(ctx, actor, sid),
    endAllOwnSessions: (actor: Authenticated) => endAllOwnSessions(ctx, actor),
    sweepSessions: () => sweepSessions(ctx),
    completeSecondFactor: (challenge: string, proof: SecondFactorProof, client: SessionClient) =>
      completeSecondFactor(ctx, challenge, proof, client.address, (runner, admin, methods) =>
        openSession(ctx, runner, admin, client, methods),
      ),
    beginChallengeEnrolment: (challenge: string) => beginChallengeEnrolment(ctx, challenge),
    securityStatus: (actor: AdminRecord) => securityStatus(ctx, actor),
    beginTotpEnrolment: (actor: Authenticated) => beginTotpEnrolment(ctx, actor),
    confirmTotpEnrolment: (actor: Authenticated, code: string, ip: string) =>
      confirmTotpEnrolment(ctx, actor, code, ip),
    disableTotp: (actor: AdminRecord, code: string, ip: string) => disableTotp(ctx, actor, code, ip),
    resetFactors: (actor: Authenticated, targetId: string) => resetFactors(ctx, actor, targetId),
    replaceRecoveryCodes: (actor: Authenticated) => replaceRecoveryCodes(ctx, actor),
    stepUpState: (actor: Authenticated) => stepUpState(ctx, actor),
    stepUpPasskeyOptions: (actor: Authenticated) => ownPasskeyOptions(ctx, actor.admin, 'step-up'),
    reauthenticate: (actor: Authenticated, proof: StepUpProof, ip: string) =>
      reauthenticate(ctx, actor, proof, ip),
    securitySettings: () => securitySettings(ctx),
    setMfaRequired: (actor: AdminRecord, required: boolean) => setMfaRequired(ctx, actor, required),
    sweepChallenges: async () => {
      await sweepChallenges(ctx);
      await sweepPasskeyChallenges(ctx);
    },
    passkeyRegistrationOptions: (actor: Authenticated) => passkeyRegistrationOptions(ctx, actor),
    addPasskey: (actor: Authenticated, name: string, response: Parameters<typeof addPasskey>[3]) =>
      addPasskey(ctx, actor, name, response, (runner) => storeRecoveryCodes(runner, actor.admin.id)),
    removePasskey: (actor: Authenticated, id: string) => removePasskey(ctx, actor, id),
    secondFactorPasskeyOptions: async (challenge: string) => {
      const { admin, purpose } = await challengedAdmin(ctx, challenge);
      if (purpose !== 'verify') throw conflict('No passkey is set up for this account', 'no_passkey');
      return ownPasskeyOptions(ctx, admin, 'second-factor');
    },
    passkeySignInOptions: () => passkeySignInOptions(ctx),
    signInWithPasskey: (response: Parameters<typeof signInWithPasskey>[1], client: SessionClient) =>
      signInWithPasskey(ctx, response, (tx, admin) => openSession(ctx, tx, admin, client, ['passkey'])),
  };
}

export type AdminAccounts = ReturnType<typeof createAdminAccounts>;

import { randomUUID } from 'node:crypto';
import { assertSessionAllowed, type AdminTokenClaims, type SignInMethod } from '@readiness/kit/auth';
import type { Database, Tx } from '@readiness/kit/db';
import { badRequest, forbidden, unauthorized } from '@readiness/kit/errors';
import { adminsRepository as repo, type AdminRecord } from '../../data-access/admins-repository';
import { sessionsRepository as sessionsRepo } from '../../data-access/sessions-repository';
import type { IssuedToken, Session } from '../credentials';
import {
  ACCOUNT_DISABLED,
  INVALID_CREDENTIALS,
  actorOf,
  audited,
  committed,
  cutoffNow,
  isAdminId,
  mayUsePassword,
  revokeAllSessions,
  type AccountsContext,
  type Authenticated,
} from './context';
import { secondFactorStep, type SecondFactorStep } from './multi-factor';
import { sessionRenewed, sessionSeen, startSession, type SessionClient } from './own-sessions';

export async function warmUp(ctx: AccountsContext): Promise<void> {
  await ctx.dummyHash();
}

/** The session a token belongs to; a token from before sessions had a start counts from its own issue. */
const sessionOf = (actor: Authenticated): Session => ({
  id: actor.claims.sid ?? randomUUID(),
  startedAt: actor.claims.auth_time ?? actor.claims.iat,
  methods: actor.claims.amr ?? [],
});

export async function login(
  ctx: AccountsContext,
  email: string,
  password: string,
  ip: string,
  userAgent = '',
): Promise<{ token: IssuedToken; admin: AdminRecord } | SecondFactorStep> {
  // Counted before the hash, so no burst checks more passwords than the budget allows.
  await ctx.throttle.consumeAttempt(email, ip);
  const admin = await repo.findByEmail(ctx.database.db, email);
  let valid = false;
  if (admin) valid = await ctx.hasher.compare(password, admin.passwordHash);
  else await ctx.hasher.compare(password, await ctx.dummyHash());
  // Every caller pays for one hash, and a wrong password gets the same answer whether the account exists or is
  // disabled: an anonymous caller learns nothing about the account.
  if (!admin || !valid) {
    // Only an existing account's failures are kept: a guessed e-mail would fill the log with names nobody has.
    if (admin) await auditSignIn(ctx, admin, 'admin.sign-in-refused', { reason: 'wrong_password' });
    throw unauthorized(INVALID_CREDENTIALS, 'invalid_credentials');
  }
  // Only the account's owner, who has just proved it with the password, learns why they cannot sign in. The attempt
  // stays counted: a disabled account's right password does not refill the throttle's budget.
  if (admin.status !== 'active') {
    await auditSignIn(ctx, admin, 'admin.sign-in-refused', { reason: 'disabled' });
    throw unauthorized(ACCOUNT_DISABLED, 'account_disabled');
  }
  await ctx.throttle.recordSuccess(email, ip);
  assertPasswordSignInAllowed(ctx, admin);
  // With a second factor the right password yields a challenge, never a session.
  const secondFactor = await secondFactorStep(ctx, admin);
  if (secondFactor) return secondFactor;
  await auditSignIn(ctx, admin, 'admin.signed-in');
  return openSession(ctx, ctx.database.db, admin, { address: ip, userAgent }, ['pwd']);
}

/** A new session for an admin who proved who they are (the password, and the second factor when they have one). */
export async function openSession(
  ctx: AccountsContext,
  runner: Tx | Database['db'],
  admin: AdminRecord,
  client: SessionClient,
  methods: SignInMethod[],
): Promise<{ token: IssuedToken; admin: AdminRecord }> {
  const now = new Date();
  await repo.recordLogin(runner, admin.id, now);
  ctx.admins.forget();
  const session = { id: randomUUID(), startedAt: Math.floor(now.getTime() / 1000), methods };
  const token = await ctx.tokens.issue(admin, session);
  await startSession(ctx, admin, token, session.startedAt, client);
  return { token, admin: { ...admin, lastLogin: now } };
}

/** A password sign-in, or a refused one, in the audit log (who signed in how, and when). */
function auditSignIn(
  ctx: AccountsContext,
  admin: AdminRecord,
  action: 'admin.signed-in' | 'admin.sign-in-refused',
  details: Record<string, unknown> = {},
): Promise<void> {
  return repo.addAudit(ctx.database.db, {
    actor: action === 'admin.signed-in' ? actorOf(admin) : null,
    action,
    target: actorOf(admin),
    details: { method: 'password', ...details },
  });
}

/** With `OIDC_ALLOW_PASSWORD=false` only super admins sign in with a password; told only once the password is right. */
function assertPasswordSignInAllowed(ctx: AccountsContext, admin: AdminRecord): void {
  if (mayUsePassword(ctx, admin)) return;
  throw forbidden(
    `Password sign-in is turned off for your account. Sign in with ${ctx.singleSignOn?.displayName} instead.`,
    'password_sign_in_off',
  );
}

/**
 * The check behind every admin call: signature, issuer, audience and expiry; then revocation (logout, and
 * the per-admin cutoff from the store and, in case the store lost it, from the database); then the
 * account must exist and be active. Authorisation uses the role from the database, not the token's.
 */
export async function authenticate(ctx: AccountsContext, token: string): Promise<Authenticated> {
  const claims = await ctx.verifier.verify(token);
  if (await ctx.revocations.isTokenRevoked(claims)) throw unauthorized();
  const admin = isAdminId(claims.sub) ? await ctx.admins.get(claims.sub) : undefined;
  if (!admin || admin.status !== 'active' || claims.iat < admin.tokensValidFrom) throw unauthorized();
  // Again with the account's current role: a super admin's password session ends with the role.
  assertSessionAllowed({ ...claims, role: admin.role }, ctx.sessionRules, Math.floor(Date.now() / 1000));
  sessionSeen(ctx, claims);
  return { claims, admin };
}

/** Ends the session: the presented token and every token renewed from it (or it from) are refused from now on. */
export async function logout(ctx: AccountsContext, claims: AdminTokenClaims): Promise<void> {
  if (claims.sid) {
    await ctx.revocations.revokeSession(claims.sid, ctx.tokenTtlSeconds + 60);
    await sessionsRepo.end(ctx.database.db, claims.sub, claims.sid);
  } else await ctx.revocations.revoke(claims.jti, claims.exp);
}

/**
 * A new token for a still-valid one, in the same session. The old token stays valid until it expires:
 * requests already in flight with it must not fail.
 */
export async function refresh(ctx: AccountsContext, actor: Authenticated): Promise<IssuedToken> {
  const session = sessionOf(actor);
  // Nothing left to extend: the session has reached its maximum age, and the admin signs in again.
  if (ctx.tokens.sessionEnd(session.startedAt) <= actor.claims.exp) {
    throw unauthorized('Your session has ended. Please sign in again.', 'session_expired');
  }
  const token = await ctx.tokens.issue(actor.admin, session);
  await sessionRenewed(ctx, token);
  return token;
}

/** The admin's own new password: every other session ends, this one goes on with a new token. */
export async function changePassword(
  ctx: AccountsContext,
  actor: Authenticated,
  currentPassword: string,
  newPassword: string,
  ip: string,
): Promise<{ token: IssuedToken; admin: AdminRecord }> {
  // Counted before the hash, with sign-in's budgets: no burst checks more current passwords than login would.
  await ctx.throttle.consumeAttempt(actor.admin.email, ip, 'current-password');
  if (!(await ctx.hasher.compare(currentPassword, actor.admin.passwordHash))) {
    throw badRequest('Current password is incorrect', 'current_password_incorrect');
  }
  await ctx.throttle.recordSuccess(actor.admin.email, ip);
  if (currentPassword === newPassword) {
    throw badRequest('New password must be different from the current password', 'password_unchanged');
  }
  const passwordHash = await ctx.hasher.hash(newPassword);
  const cutoff = cutoffNow();
  const admin = await committed(ctx, async (tx) => {
    const updated = await repo.update(tx, actor.admin.id, {
      passwordHash,
      mustChangePassword: false,
      tokensValidFrom: cutoff,
    });
    if (!updated) throw unauthorized();
    await audited(tx, actor.admin, 'admin.password-changed', actor.admin);
    // Inside the transaction: if the store is down the change rolls back instead of leaving old sessions alive.
    await revokeAllSessions(ctx, updated.id, cutoff);
    return updated;
  });
  const token = await ctx.tokens.issue(admin, sessionOf(actor));
  await sessionRenewed(ctx, token);
  return { token, admin };
}

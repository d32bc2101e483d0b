import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AppError, notFound, unauthorized } from '@readiness/kit/errors';
import { adminsRepository as repo, type AdminRecord } from '../../data-access/admins-repository';
import { signInsRepository as signIns } from '../../data-access/sign-ins-repository';
import type { IssuedToken } from '../credentials';
import { PROVIDER_UNAVAILABLE, SignInRefused, type IdentityProvider } from '../identity-provider';
import { actorOf, type AccountsContext } from './context';
import { startSession, type SessionClient } from './own-sessions';

/**
 * Single sign-on as configured: the provider and its name on the login page (who may still sign in without it is
 * the session rules' `passwordSignIn`).
 */
export interface SingleSignOnSettings {
  provider: IdentityProvider;
  displayName: string;
}

/** Why a sign-in through the provider ended on the login page; the web app words each one. */
export type SignInRefusal = 'no_account' | 'disabled' | 'unverified' | 'cancelled' | 'failed' | 'unavailable';

/** From the redirect to the provider until its callback. */
const PENDING_SECONDS = 600;
/** From the callback until the web app takes the session (one request, a moment later). */
const HANDOFF_SECONDS = 120;
const DEFAULT_RETURN = '/admin/dashboard';

const SSO_NOT_CONFIGURED = 'Single sign-on is not configured';

/** The cookie's random value is the browser's key to its sign-in; only its digest is stored. */
const digest = (binding: string) => createHash('sha256').update(binding).digest();

/** Only in-app admin pages: a crafted return address cannot send anyone elsewhere. */
function safeReturnTo(value: string | undefined): string {
  if (!value || !value.startsWith('/admin/') || value.startsWith('/admin/login') || /[\\\s]/.test(value)) {
    return DEFAULT_RETURN;
  }
  return value;
}

function settingsOf(ctx: AccountsContext): SingleSignOnSettings {
  if (!ctx.singleSignOn) throw notFound(SSO_NOT_CONFIGURED, 'sso_not_configured');
  return ctx.singleSignOn;
}

/** A new sign-in: the value for the browser's cookie and the provider's URL to send the browser to. */
export async function beginSignIn(
  ctx: AccountsContext,
  returnTo: string | undefined,
): Promise<{ binding: string; url: string }> {
  const { provider } = settingsOf(ctx);
  const { secrets, url } = await provider.begin();
  const binding = randomBytes(32).toString('base64url');
  await signIns.begin(
    ctx.database.db,
    digest(binding),
    { ...secrets, returnTo: safeReturnTo(returnTo) },
    PENDING_SECONDS,
  );
  return { binding, url };
}

/**
 * The provider sent the browser back. The pending sign-in of this browser (its cookie) whose state the callback
 * carries is taken once, so a replayed callback finds nothing, and a forged one (another state, opened in this
 * browser) leaves it for the real callback; the provider's answer is checked; the verified e-mail must be an
 * active admin's.
 */
export async function completeSignIn(
  ctx: AccountsContext,
  binding: string | undefined,
  callbackUrl: URL,
  address: string,
): Promise<{ signedIn: true } | { refused: SignInRefusal }> {
  const { provider } = settingsOf(ctx);
  const state = callbackUrl.searchParams.get('state');
  const pending =
    binding && state ? await signIns.takePending(ctx.database.db, digest(binding), state) : undefined;
  if (!pending) {
    ctx.logger.warn(
      'a single sign-on callback without a pending sign-in of this browser (replayed, expired or forged)',
    );
    return { refused: 'failed' };
  }
  let email: string | undefined;
  try {
    const identity = await provider.identify(callbackUrl, pending);
    email = identity.email?.trim().toLowerCase();
    if (!email || !identity.emailVerified) return await refuse(ctx, address, 'unverified', email);
  } catch (err) {
    if (err instanceof SignInRefused) {
      ctx.logger.warn({ reason: err.reason, problem: err.message }, 'a single sign-on was refused');
      return { refused: err.reason };
    }
    if (err instanceof AppError && err.code === PROVIDER_UNAVAILABLE) return { refused: 'unavailable' };
    throw err;
  }
  const admin = await repo.findByEmail(ctx.database.db, email);
  if (!admin) return refuse(ctx, address, 'no_account', email);
  if (admin.status !== 'active') return refuse(ctx, address, 'disabled', email, admin);
  await signIns.completed(ctx.database.db, digest(binding!), admin.id, pending.returnTo, HANDOFF_SECONDS);
  return { signedIn: true };
}

/**
 * A refusal the provider's answer led to, in the audit log. Anyone the provider knows can cause one, so each
 * address writes at most its budget of entries (SSO_REFUSAL_AUDITS per window); past it the refusal still
 * answers and is only logged.
 */
async function refuse(
  ctx: AccountsContext,
  address: string,
  reason: SignInRefusal,
  email: string | undefined,
  admin?: AdminRecord,
): Promise<{ refused: SignInRefusal }> {
  const audit = await ctx.ssoRefusalAudits.consume(address);
  ctx.logger.warn({ reason, email, address, audited: audit.allowed }, 'a single sign-on was refused');
  if (audit.allowed) {
    await repo.addAudit(ctx.database.db, {
      actor: null,
      action: 'admin.sign-in-refused',
      target: admin ? actorOf(admin) : null,
      details: { method: 'sso', reason, address, ...(email ? { email } : {}) },
    });
  }
  return { refused: reason };
}

/**
 * The web app takes the session the callback prepared, once, from the browser that began the sign-in: a
 * Readiness session exactly like a password one.
 */
export async function takeSignInSession(
  ctx: AccountsContext,
  binding: string | undefined,
  postLogoutRedirectUri: string,
  client: SessionClient = { address: '', userAgent: '' },
): Promise<{ token: IssuedToken; admin: AdminRecord; returnTo: string; endSessionUrl?: string }> {
  const { provider, displayName } = settingsOf(ctx);
  const incomplete = () =>
    unauthorized(`Sign-in with ${displayName} did not complete. Please try again.`, 'sso_incomplete');
  const handoff = binding ? await signIns.takeCompleted(ctx.database.db, digest(binding)) : undefined;
  if (!handoff) throw incomplete();
  const found = await repo.findById(ctx.database.db, handoff.adminId);
  if (!found || found.status !== 'active') throw incomplete();
  const now = new Date();
  await ctx.database.transaction(async (tx) => {
    await repo.recordLogin(tx, found.id, now);
    await repo.addAudit(tx, {
      actor: actorOf(found),
      action: 'admin.signed-in',
      target: actorOf(found),
      details: { method: 'sso' },
    });
  });
  ctx.admins.forget();
  const admin = { ...found, lastLogin: now };
  const startedAt = Math.floor(now.getTime() / 1000);
  const token = await ctx.tokens.issue(admin, { id: randomUUID(), startedAt, methods: ['sso'] });
  await startSession(ctx, admin, token, startedAt, client);
  const endSessionUrl = await provider.endSessionUrl(postLogoutRedirectUri);
  return { token, admin, returnTo: handoff.returnTo, ...(endSessionUrl ? { endSessionUrl } : {}) };
}

/** Expired sign-ins are worthless: swept by a job. */
export const sweepSignIns = (ctx: AccountsContext) => signIns.sweep(ctx.database.db);

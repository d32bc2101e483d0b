import { randomBytes } from 'node:crypto';
import {
  signInWithoutProviderAllowed,
  type AdminTokenClaims,
  type JwtVerifier,
  type SessionRules,
} from '@readiness/kit/auth';
import type { AuditAction } from '@readiness/contracts';
import type { RateLimiter, RevocationList } from '@readiness/kit/cache';
import { isUniqueViolation, type Database, type Tx } from '@readiness/kit/db';
import { conflict, forbidden, notFound } from '@readiness/kit/errors';
import type { Logger } from '@readiness/kit/logger';
import type { SecretBox } from '@readiness/kit/outbox';
import { adminsRepository as repo, type AdminRecord } from '../../data-access/admins-repository';
import type { LoginThrottle } from '../login-throttle';
import type { PasswordHasher, TokenIssuer } from '../credentials';
import type { SingleSignOnSettings } from './single-sign-on';
import type { RelyingParty } from './passkeys';

export const INVALID_CREDENTIALS = 'Invalid email or password';
/** Told only to whoever proved they hold the account (its password or passkey). */
export const ACCOUNT_DISABLED = 'Your account is disabled. Ask a super admin to enable it.';
export const ADMIN_NOT_FOUND = 'Admin not found';
export const EMAIL_TAKEN = 'An admin with this email already exists';

export interface Authenticated {
  claims: AdminTokenClaims;
  admin: AdminRecord;
}

export interface AdminAccountsDeps {
  database: Database;
  hasher: PasswordHasher;
  tokens: TokenIssuer;
  verifier: JwtVerifier;
  revocations: RevocationList;
  throttle: LoginThrottle;
  /** Second-factor codes (authenticator and recovery codes), per account and per address: a budget of its own. */
  secondFactorThrottle: LoginThrottle;
  /** Audit entries of refused single sign-ons, per client address: anyone the provider knows can cause them. */
  ssoRefusalAudits: RateLimiter;
  /** Seals the secrets that events carry (the temporary password) for their consumers. */
  secrets: SecretBox;
  tokenTtlSeconds: number;
  /** The settings every token is checked against (its session's age, how it was signed in), as every verifier has them. */
  sessionRules: SessionRules;
  /** How long a proof of the person (a sign-in or a step-up) lets its session change the admin's factors. */
  stepUpSeconds: number;
  logger: Logger;
  /** Single sign-on with the institution's OpenID Provider, when configured. */
  singleSignOn?: SingleSignOnSettings;
  /** The site passkeys are made for. */
  relyingParty: RelyingParty;
}

/** What the use cases of admin accounts share: their dependencies and the short-lived cache of admin rows. */
export interface AccountsContext extends AdminAccountsDeps {
  admins: AdminCache;
  /**
   * A hash of a random password: an unknown e-mail still costs one bcrypt comparison against it, so response
   * time does not tell which e-mails have accounts. Made once, ahead of the first sign-in by `warmUp`.
   */
  dummyHash(): Promise<string>;
  /** When this process last noted a call of each session (epoch ms); see `sessionSeen`. */
  sessionsSeen: Map<string, number>;
}

export function accountsContext(deps: AdminAccountsDeps): AccountsContext {
  let dummy: Promise<string> | undefined;
  return {
    ...deps,
    admins: createAdminCache(deps.database),
    dummyHash: () => (dummy ??= deps.hasher.hash(randomBytes(16).toString('hex'))),
    sessionsSeen: new Map(),
  };
}

/** How long an admin row read for authentication is reused; see `createAdminCache`. */
export const ADMIN_CACHE_MS = 1_000;
/** Admins are few; the bound only stops a flood of distinct valid tokens from growing the map. */
const ADMIN_CACHE_MAX_ENTRIES = 1_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isAdminId = (id: string) => UUID.test(id);

/**
 * Whether the admin may sign in without the institution's provider (a password, or a passkey alone): the rule every
 * token verifier applies to the tokens of such sign-ins, too.
 */
export const mayUsePassword = (ctx: AccountsContext, admin: { role: string }) =>
  signInWithoutProviderAllowed(ctx.sessionRules.passwordSignIn, admin.role);

export const actorOf = (a: AdminRecord) => ({ id: a.id, name: a.name, email: a.email });

/** Writes the audit entry of what `actor` did to `target` in the use case's transaction; answers `target`. */
export async function audited(
  tx: Tx,
  actor: AdminRecord,
  action: AuditAction,
  target: AdminRecord,
  details?: Record<string, unknown>,
): Promise<AdminRecord> {
  await repo.addAudit(tx, { actor: actorOf(actor), action, target: actorOf(target), details });
  return target;
}

/** A cutoff one second ahead: every token issued up to now, including this very second, falls under it. */
export const cutoffNow = () => Math.floor(Date.now() / 1000) + 1;

export type AdminCache = ReturnType<typeof createAdminCache>;

/**
 * The admin rows read by `authenticate`, kept for ADMIN_CACHE_MS so a burst of admin calls does not cost a
 * database query each. Safe because the decisions that must act at once do not depend on it: disable,
 * password reset and password change write a revocation cutoff that `authenticate` checks in the shared
 * store on every request, uncached, so the old tokens are refused on the very next call on every replica.
 * What can lag, by at most ADMIN_CACHE_MS and only on another replica, is a role or profile change (this
 * process forgets every entry when it commits a change) and the database's own cutoff, which is only the
 * fallback for a store that lost its keys.
 */
function createAdminCache(database: Database) {
  const entries = new Map<string, { admin: AdminRecord; until: number }>();
  let generation = 0;
  return {
    forget() {
      generation += 1;
      entries.clear();
    },
    async get(id: string): Promise<AdminRecord | undefined> {
      const now = Date.now();
      const hit = entries.get(id);
      if (hit && hit.until > now) return hit.admin;
      // A read that overlapped a commit may carry the old row: it is used for this request but not kept.
      const readAt = generation;
      const admin = await repo.findById(database.db, id);
      if (admin && readAt === generation) {
        if (entries.size >= ADMIN_CACHE_MAX_ENTRIES) entries.clear();
        entries.set(id, { admin, until: now + ADMIN_CACHE_MS });
      }
      return admin;
    },
  };
}

/** Runs a change in a transaction and forgets the cached admins. */
export async function committed<T>(ctx: AccountsContext, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await ctx.database.transaction(fn);
  } finally {
    // Also after a failed commit: whether it took effect is not certain from here.
    ctx.admins.forget();
  }
  return result;
}

/** Every session of the admin ends: tokens issued before the cutoff are refused. */
export const revokeAllSessions = (ctx: AccountsContext, adminId: string, cutoff: number) =>
  ctx.revocations.revokeSubjectBefore(adminId, cutoff, ctx.tokenTtlSeconds + 60);

/** Locks the actor and target in one statement and re-checks that the actor is still an active super admin. */
export async function lockForChange(tx: Tx, actorId: string, targetId: string) {
  if (!isAdminId(targetId)) throw notFound(ADMIN_NOT_FOUND, 'admin_not_found');
  const { target, activeSuperAdmins } = await repo.lockForRoleChange(tx, targetId);
  if (!activeSuperAdmins.includes(actorId)) throw forbidden();
  if (!target) throw notFound(ADMIN_NOT_FOUND, 'admin_not_found');
  return { target, activeSuperAdmins };
}

export function emailTaken(err: unknown): never {
  if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN, 'email_taken');
  throw err;
}

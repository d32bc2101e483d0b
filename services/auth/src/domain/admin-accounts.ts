import { randomBytes, randomUUID } from 'node:crypto';
import type { AdminTokenClaims, JwtVerifier } from '@readiness/kit/auth';
import type { RevocationList } from '@readiness/kit/cache';
import { isUniqueViolation, type Database, type Tx } from '@readiness/kit/db';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '@readiness/kit/errors';
import type { Logger } from '@readiness/kit/logger';
import type { SecretBox } from '@readiness/kit/outbox';
import {
  adminsRepository as repo,
  type AdminRecord,
  type AdminRole,
  type AdminStatus,
  type AuditEntry,
} from '../data-access/admins-repository';
import { adminEvents } from './events';
import type { LoginThrottle } from './login-throttle';
import type { PasswordHasher } from './password-hasher';
import { temporaryPassword } from './passwords';
import type { IssuedToken, TokenIssuer } from './tokens';

export const INVALID_CREDENTIALS = 'Invalid email or password';
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
  /** Seals the secrets that events carry (the temporary password) for their consumers. */
  secrets: SecretBox;
  tokenTtlSeconds: number;
  logger: Logger;
  /** Called after a commit that wrote outbox rows, so the relay publishes without waiting for its poll. */
  onEventsCommitted: () => void;
}

/** How long an admin row read for authentication is reused; see `cachedAdmin`. */
export const ADMIN_CACHE_MS = 1_000;
/** Admins are few; the bound only stops a flood of distinct valid tokens from growing the map. */
const ADMIN_CACHE_MAX_ENTRIES = 1_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const actorOf = (a: AdminRecord) => ({ id: a.id, name: a.name, email: a.email });

/** A cutoff one second ahead: every token issued up to now, including this very second, falls under it. */
const cutoffNow = () => Math.floor(Date.now() / 1000) + 1;

/** Use cases of the auth service: sessions and admin accounts. No Express and no SQL here. */
export function createAdminAccounts(deps: AdminAccountsDeps) {
  const { database, hasher, tokens, revocations, throttle } = deps;
  let dummyHash: Promise<string> | undefined;

  /**
   * An unknown e-mail still costs one bcrypt comparison (against a hash of a random password), so response
   * time does not tell which e-mails have accounts.
   */
  const compareWithDummy = async (password: string) => {
    dummyHash ??= hasher.hash(randomBytes(16).toString('hex'));
    await hasher.compare(password, await dummyHash);
  };

  /** The session a token belongs to; a token from before sessions had a start counts from its own issue. */
  const sessionOf = (actor: Authenticated) => ({
    id: actor.claims.sid ?? randomUUID(),
    startedAt: actor.claims.auth_time ?? actor.claims.iat,
  });

  const revokeAllSessions = (adminId: string, cutoff: number) =>
    revocations.revokeSubjectBefore(adminId, cutoff, deps.tokenTtlSeconds + 60);

  /**
   * The admin rows read by `authenticate`, kept for ADMIN_CACHE_MS so a burst of admin calls does not cost a
   * database query each. Safe because the decisions that must act at once do not depend on it: disable,
   * password reset and password change write a revocation cutoff that `authenticate` checks in the shared
   * store on every request, uncached, so the old tokens are refused on the very next call on every replica.
   * What can lag, by at most ADMIN_CACHE_MS and only on another replica, is a role or profile change (this
   * process forgets every entry when it commits a change) and the database's own cutoff, which is only the
   * fallback for a store that lost its keys.
   */
  const adminCache = new Map<string, { admin: AdminRecord; until: number }>();
  let adminCacheGeneration = 0;
  const forgetCachedAdmins = () => {
    adminCacheGeneration += 1;
    adminCache.clear();
  };

  async function cachedAdmin(id: string): Promise<AdminRecord | undefined> {
    const now = Date.now();
    const hit = adminCache.get(id);
    if (hit && hit.until > now) return hit.admin;
    // A read that overlapped a commit may carry the old row: it is used for this request but not kept.
    const generation = adminCacheGeneration;
    const admin = await repo.findById(database.db, id);
    if (admin && generation === adminCacheGeneration) {
      if (adminCache.size >= ADMIN_CACHE_MAX_ENTRIES) adminCache.clear();
      adminCache.set(id, { admin, until: now + ADMIN_CACHE_MS });
    }
    return admin;
  }

  async function committed<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await database.transaction(fn);
    } finally {
      // Also after a failed commit: whether it took effect is not certain from here.
      forgetCachedAdmins();
    }
    deps.onEventsCommitted();
    return result;
  }

  /** Locks the actor and target in one statement and re-checks that the actor is still an active super admin. */
  async function lockForChange(tx: Tx, actorId: string, targetId: string) {
    if (!UUID.test(targetId)) throw notFound(ADMIN_NOT_FOUND, 'admin_not_found');
    const { target, activeSuperAdmins } = await repo.lockForRoleChange(tx, targetId);
    if (!activeSuperAdmins.includes(actorId)) throw forbidden();
    if (!target) throw notFound(ADMIN_NOT_FOUND, 'admin_not_found');
    return { target, activeSuperAdmins };
  }

  function emailTaken(err: unknown): never {
    if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN, 'email_taken');
    throw err;
  }

  return {
    async warmUp(): Promise<void> {
      dummyHash ??= hasher.hash(randomBytes(16).toString('hex'));
      await dummyHash;
    },

    async login(
      email: string,
      password: string,
      ip: string,
    ): Promise<{ token: IssuedToken; admin: AdminRecord }> {
      // Counted before the hash, so no burst checks more passwords than the budget allows.
      await throttle.consumeAttempt(email, ip);
      const admin = await repo.findByEmail(database.db, email);
      let valid = false;
      if (admin) valid = await hasher.compare(password, admin.passwordHash);
      else await compareWithDummy(password);
      // A disabled account gets the same answer as a wrong password: an anonymous caller learns nothing.
      if (!admin || !valid || admin.status !== 'active') {
        throw unauthorized(INVALID_CREDENTIALS, 'invalid_credentials');
      }
      await throttle.recordSuccess(email, ip);
      const now = new Date();
      await repo.recordLogin(database.db, admin.id, now);
      forgetCachedAdmins();
      const session = { id: randomUUID(), startedAt: Math.floor(now.getTime() / 1000) };
      return { token: tokens.issue(admin, session), admin: { ...admin, lastLogin: now } };
    },

    /**
     * The check behind every admin call: signature, issuer, audience and expiry; then revocation (logout, and
     * the per-admin cutoff from the store and, in case the store lost it, from the database); then the
     * account must exist and be active. Authorisation uses the role from the database, not the token's.
     */
    async authenticate(token: string): Promise<Authenticated> {
      const claims = await deps.verifier.verify(token);
      if (await revocations.isTokenRevoked(claims)) {
        throw unauthorized();
      }
      const admin = UUID.test(claims.sub) ? await cachedAdmin(claims.sub) : undefined;
      if (!admin || admin.status !== 'active' || claims.iat < admin.tokensValidFrom) throw unauthorized();
      return { claims, admin };
    },

    /** Ends the session: the presented token and every token renewed from it (or it from) are refused from now on. */
    async logout(claims: AdminTokenClaims): Promise<void> {
      if (claims.sid) await revocations.revokeSession(claims.sid, deps.tokenTtlSeconds + 60);
      else await revocations.revoke(claims.jti, claims.exp);
    },

    /**
     * A new token for a still-valid one, in the same session. The old token stays valid until it expires:
     * requests already in flight with it must not fail.
     */
    refresh(actor: Authenticated): IssuedToken {
      const session = sessionOf(actor);
      // Nothing left to extend: the session has reached its maximum age, and the admin signs in again.
      if (tokens.sessionEnd(session.startedAt) <= actor.claims.exp) {
        throw unauthorized('Your session has ended. Please sign in again.', 'session_expired');
      }
      return tokens.issue(actor.admin, session);
    },

    async changePassword(
      actor: Authenticated,
      currentPassword: string,
      newPassword: string,
      ip: string,
    ): Promise<{ token: IssuedToken; admin: AdminRecord }> {
      // Counted before the hash, with sign-in's budgets: no burst checks more current passwords than login would.
      await throttle.consumeAttempt(actor.admin.email, ip, 'current-password');
      if (!(await hasher.compare(currentPassword, actor.admin.passwordHash))) {
        throw badRequest('Current password is incorrect', 'current_password_incorrect');
      }
      await throttle.recordSuccess(actor.admin.email, ip);
      if (currentPassword === newPassword) {
        throw badRequest('New password must be different from the current password', 'password_unchanged');
      }
      const passwordHash = await hasher.hash(newPassword);
      const cutoff = cutoffNow();
      const admin = await committed(async (tx) => {
        const updated = await repo.update(tx, actor.admin.id, {
          passwordHash,
          mustChangePassword: false,
          tokensValidFrom: cutoff,
        });
        if (!updated) throw unauthorized();
        await repo.addAudit(tx, {
          actor: actorOf(actor.admin),
          action: 'admin.password-changed',
          target: actorOf(actor.admin),
        });
        // Inside the transaction: if the store is down the change rolls back instead of leaving old sessions alive.
        await revokeAllSessions(updated.id, cutoff);
        return updated;
      });
      return { token: tokens.issue(admin, sessionOf(actor)), admin };
    },

    listAdmins: () => repo.list(database.db),

    async createAdmin(
      actor: AdminRecord,
      input: { name: string; email: string; password: string; role: AdminRole },
    ): Promise<AdminRecord> {
      const passwordHash = await hasher.hash(input.password);
      return committed(async (tx) => {
        const admin = await repo
          .insert(tx, { name: input.name, email: input.email, passwordHash, role: input.role })
          .catch(emailTaken);
        await repo.addAudit(tx, {
          actor: actorOf(actor),
          action: 'admin.created',
          target: actorOf(admin),
          details: { role: admin.role },
        });
        await adminEvents.created(tx, admin, actor.id);
        return admin;
      });
    },

    async updateAdmin(
      actor: AdminRecord,
      targetId: string,
      input: { name: string; email: string; role: AdminRole },
    ): Promise<AdminRecord> {
      return committed(async (tx) => {
        const { target, activeSuperAdmins } = await lockForChange(tx, actor.id, targetId);
        if (target.role === 'super_admin' && input.role !== 'super_admin') {
          if (target.id === actor.id) {
            throw badRequest('You cannot remove your own super admin role', 'cannot_demote_self');
          }
          if (target.status === 'active' && activeSuperAdmins.length <= 1) {
            throw conflict('At least one active super admin is required', 'last_super_admin');
          }
        }
        const updated = (await repo
          .update(tx, target.id, { name: input.name, email: input.email, role: input.role })
          .catch(emailTaken)) as AdminRecord;
        const changes: Record<string, { from: string; to: string }> = {};
        for (const key of ['name', 'email', 'role'] as const) {
          if (target[key] !== updated[key]) changes[key] = { from: target[key], to: updated[key] };
        }
        if (Object.keys(changes).length > 0) {
          await repo.addAudit(tx, {
            actor: actorOf(actor),
            action: 'admin.updated',
            target: actorOf(updated),
            details: { changes },
          });
          await adminEvents.updated(tx, updated, actor.id);
        }
        return updated;
      });
    },

    async setStatus(actor: AdminRecord, targetId: string, status: AdminStatus): Promise<AdminRecord> {
      return committed(async (tx) => {
        const { target, activeSuperAdmins } = await lockForChange(tx, actor.id, targetId);
        if (target.status === status) return target;
        const cutoff = cutoffNow();
        if (status === 'disabled') {
          if (target.id === actor.id)
            throw badRequest('You cannot disable your own account', 'cannot_disable_self');
          if (target.role === 'super_admin' && activeSuperAdmins.length <= 1) {
            throw conflict('At least one active super admin is required', 'last_super_admin');
          }
        }
        const updated = (await repo.update(tx, target.id, {
          status,
          ...(status === 'disabled' ? { tokensValidFrom: cutoff } : {}),
        })) as AdminRecord;
        await repo.addAudit(tx, {
          actor: actorOf(actor),
          action: 'admin.status-changed',
          target: actorOf(updated),
          details: { from: target.status, to: status },
        });
        await adminEvents.statusChanged(tx, updated, actor.id);
        if (status === 'disabled') await revokeAllSessions(updated.id, cutoff);
        return updated;
      });
    },

    async resetPassword(actor: AdminRecord, targetId: string): Promise<AdminRecord> {
      if (!UUID.test(targetId)) throw notFound(ADMIN_NOT_FOUND, 'admin_not_found');
      const password = temporaryPassword();
      const passwordHash = await hasher.hash(password);
      const cutoff = cutoffNow();
      return committed(async (tx) => {
        const { target } = await lockForChange(tx, actor.id, targetId);
        const updated = (await repo.update(tx, target.id, {
          passwordHash,
          mustChangePassword: true,
          tokensValidFrom: cutoff,
        })) as AdminRecord;
        await repo.addAudit(tx, {
          actor: actorOf(actor),
          action: 'admin.password-reset',
          target: actorOf(updated),
        });
        // The temporary password travels only in this event, sealed, to the notification service that mails it.
        await adminEvents.passwordReset(tx, updated, deps.secrets.seal(password), actor.id);
        await revokeAllSessions(updated.id, cutoff);
        return updated;
      });
    },

    auditLog: (options: { limit: number; before?: Date }): Promise<AuditEntry[]> =>
      repo.listAudit(database.db, options),

    /**
     * First start: with no admin at all, create the super admin. Two replicas starting together may both try;
     * the unique e-mail makes the second insert fail, which is then not an error.
     */
    /**
     * The first super admin. A generated password (printed once at start) must be replaced at the first sign-in,
     * as a temporary password after a reset is; one the operator chose (SEED_ADMIN_PASSWORD) is theirs to keep.
     */
    async seed(input: {
      email: string;
      password: string;
      name: string;
      mustChangePassword?: boolean;
    }): Promise<AdminRecord | undefined> {
      if ((await repo.count(database.db)) > 0) return undefined;
      const passwordHash = await hasher.hash(input.password);
      try {
        return await committed(async (tx) => {
          const admin = await repo.insert(tx, {
            name: input.name,
            email: input.email,
            passwordHash,
            role: 'super_admin',
            mustChangePassword: input.mustChangePassword ?? false,
          });
          await repo.addAudit(tx, { actor: null, action: 'admin.seeded', target: actorOf(admin) });
          await adminEvents.created(tx, admin, null);
          return admin;
        });
      } catch (err) {
        if (isUniqueViolation(err)) return undefined;
        throw err;
      }
    },
  };
}

export type AdminAccounts = ReturnType<typeof createAdminAccounts>;

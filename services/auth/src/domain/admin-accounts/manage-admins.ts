import type { Tx } from '@readiness/kit/db';
import { badRequest, conflict, notFound } from '@readiness/kit/errors';
import {
  adminsRepository as repo,
  type AdminRecord,
  type AdminRole,
  type AdminStatus,
} from '../../data-access/admins-repository';
import { adminEvents } from '../events';
import { temporaryPassword } from '../passwords';
import { removeEveryFactor } from './multi-factor';
import {
  ADMIN_NOT_FOUND,
  actorOf,
  audited,
  committed,
  cutoffNow,
  EMAIL_TAKEN,
  emailTaken,
  isAdminId,
  lockForChange,
  mayUsePassword,
  revokeAllSessions,
  type AccountsContext,
} from './context';

const lastSuperAdmin = () => conflict('At least one active super admin is required', 'last_super_admin');

/**
 * Inserts an admin with their password hashed (outside the transaction: hashing is slow on purpose), and goes on in
 * the same transaction with the new record, or with nothing when the e-mail is taken.
 */
async function insertAdmin<T>(
  ctx: AccountsContext,
  input: { name: string; email: string; password: string; role: AdminRole; mustChangePassword: boolean },
  then: (tx: Tx, admin: AdminRecord | undefined) => Promise<T>,
): Promise<T> {
  const passwordHash = await ctx.hasher.hash(input.password);
  return committed(ctx, async (tx) => {
    const { password: _password, ...fields } = input;
    return then(tx, await repo.insert(tx, { ...fields, passwordHash }));
  });
}

/**
 * A new admin with a password the super admin chose: someone else knows it, so, like a temporary password after a
 * reset, it must be replaced at the first sign-in. Not where it cannot sign in at all (`OIDC_ALLOW_PASSWORD=false`
 * and not a super admin): their sign-in is the provider's, and no password screen should stand in its way.
 */
export async function createAdmin(
  ctx: AccountsContext,
  actor: AdminRecord,
  input: { name: string; email: string; password: string; role: AdminRole },
): Promise<AdminRecord> {
  const account = { ...input, mustChangePassword: mayUsePassword(ctx, input) };
  return insertAdmin(ctx, account, async (tx, admin) => {
    if (!admin) throw conflict(EMAIL_TAKEN, 'email_taken');
    await adminEvents.created(tx, admin, actor.id);
    return audited(tx, actor, 'admin.created', admin, { role: admin.role });
  });
}

/** Name, e-mail and role; a super admin keeps their own role, and one active super admin always remains. */
export async function updateAdmin(
  ctx: AccountsContext,
  actor: AdminRecord,
  targetId: string,
  input: { name: string; email: string; role: AdminRole },
): Promise<AdminRecord> {
  return committed(ctx, async (tx) => {
    const { target, activeSuperAdmins } = await lockForChange(tx, actor.id, targetId);
    if (target.role === 'super_admin' && input.role !== 'super_admin') {
      if (target.id === actor.id) {
        throw badRequest('You cannot remove your own super admin role', 'cannot_demote_self');
      }
      if (target.status === 'active' && activeSuperAdmins.length <= 1) throw lastSuperAdmin();
    }
    // Asked first, so that a taken e-mail is an answer rather than a failed statement in the database's log; the
    // unique index still decides between two changes at once.
    if (input.email !== target.email && (await repo.emailInUse(tx, input.email, target.id))) {
      throw conflict(EMAIL_TAKEN, 'email_taken');
    }
    const updated = (await repo
      .update(tx, target.id, { name: input.name, email: input.email, role: input.role })
      .catch(emailTaken)) as AdminRecord;
    const changes: Record<string, { from: string; to: string }> = {};
    for (const key of ['name', 'email', 'role'] as const) {
      if (target[key] !== updated[key]) changes[key] = { from: target[key], to: updated[key] };
    }
    if (Object.keys(changes).length === 0) return updated;
    await adminEvents.updated(tx, updated, actor.id);
    return audited(tx, actor, 'admin.updated', updated, { changes });
  });
}

/** Enables or disables an account; disabling ends all its sessions at once. */
export async function setAdminStatus(
  ctx: AccountsContext,
  actor: AdminRecord,
  targetId: string,
  status: AdminStatus,
): Promise<AdminRecord> {
  return committed(ctx, async (tx) => {
    const { target, activeSuperAdmins } = await lockForChange(tx, actor.id, targetId);
    if (target.status === status) return target;
    const cutoff = cutoffNow();
    if (status === 'disabled') {
      if (target.id === actor.id)
        throw badRequest('You cannot disable your own account', 'cannot_disable_self');
      if (target.role === 'super_admin' && activeSuperAdmins.length <= 1) throw lastSuperAdmin();
    }
    const updated = (await repo.update(tx, target.id, {
      status,
      ...(status === 'disabled' ? { tokensValidFrom: cutoff } : {}),
    })) as AdminRecord;
    await audited(tx, actor, 'admin.status-changed', updated, { from: target.status, to: status });
    await adminEvents.statusChanged(tx, updated, actor.id);
    if (status === 'disabled') await revokeAllSessions(ctx, updated.id, cutoff);
    return updated;
  });
}

/**
 * A temporary password, mailed to the admin (sealed in the event); their sessions end, and their passkeys,
 * authenticator app and recovery codes go too: a factor someone else added while holding their session can then
 * neither sign in nor lock the owner out.
 */
export async function resetPassword(
  ctx: AccountsContext,
  actor: AdminRecord,
  targetId: string,
): Promise<AdminRecord> {
  if (!isAdminId(targetId)) throw notFound(ADMIN_NOT_FOUND, 'admin_not_found');
  const password = temporaryPassword();
  const passwordHash = await ctx.hasher.hash(password);
  const cutoff = cutoffNow();
  return committed(ctx, async (tx) => {
    const { target } = await lockForChange(tx, actor.id, targetId);
    const updated = (await repo.update(tx, target.id, {
      passwordHash,
      mustChangePassword: true,
      tokensValidFrom: cutoff,
    })) as AdminRecord;
    await audited(tx, actor, 'admin.password-reset', updated);
    const reset = await removeEveryFactor(tx, actor, updated, 'password-reset');
    // The temporary password travels only in this event, sealed, to the notification service that mails it.
    await adminEvents.passwordReset(tx, updated, ctx.secrets.seal(password), actor.id);
    await revokeAllSessions(ctx, updated.id, cutoff);
    return reset;
  });
}

/**
 * The first super admin, when there is no admin at all. Two replicas starting together may both try; the unique
 * e-mail makes the second insert fail, which is then not an error. A generated password (printed once at start)
 * must be replaced at the first sign-in, as a temporary password after a reset is; one the operator chose
 * (SEED_ADMIN_PASSWORD) is theirs to keep.
 */
export async function seedAdmin(
  ctx: AccountsContext,
  input: { email: string; password: string; name: string; mustChangePassword?: boolean },
): Promise<AdminRecord | undefined> {
  if ((await repo.count(ctx.database.db)) > 0) return undefined;
  const account = {
    ...input,
    role: 'super_admin' as const,
    mustChangePassword: input.mustChangePassword ?? false,
  };
  return insertAdmin(ctx, account, async (tx, admin) => {
    // Another replica seeded the same admin at the same time.
    if (!admin) return undefined;
    await repo.addAudit(tx, { actor: null, action: 'admin.seeded', target: actorOf(admin) });
    await adminEvents.created(tx, admin, null);
    return admin;
  });
}

import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '@readiness/kit/db';
import { and, asc, desc, eq, lt, or, sql } from 'drizzle-orm';
import { admins, auditLog } from './schema';

export type AdminRole = 'admin' | 'super_admin';
export type AdminStatus = 'active' | 'disabled';

/** An admin row as the domain sees it (the password hash never leaves the service). */
export interface AdminRecord {
  id: string;
  name: string;
  email: string;
  passwordHash: string;
  role: AdminRole;
  status: AdminStatus;
  mustChangePassword: boolean;
  tokensValidFrom: number;
  lastLogin: Date | null;
  createdAt: Date;
}

export interface NewAdmin {
  name: string;
  email: string;
  passwordHash: string;
  role: AdminRole;
  mustChangePassword?: boolean;
}

export interface AuditEntry {
  id: string;
  actor: { id: string; name: string; email: string } | null;
  action: string;
  target: { id: string; name: string; email: string } | null;
  details: Record<string, unknown>;
  createdAt: Date;
}

export interface AuditInput {
  actor: { id: string; name: string; email: string } | null;
  action: string;
  target: { id: string; name: string; email: string } | null;
  details?: Record<string, unknown>;
}

type Executor = Db | Tx;

const columns = {
  id: admins.id,
  name: admins.name,
  email: admins.email,
  passwordHash: admins.passwordHash,
  role: admins.role,
  status: admins.status,
  mustChangePassword: admins.mustChangePassword,
  tokensValidFrom: admins.tokensValidFrom,
  lastLogin: admins.lastLogin,
  createdAt: admins.createdAt,
};

/** Repository of admins and the audit log; every function takes the executor so use cases choose the transaction. */
export const adminsRepository = {
  async count(db: Executor): Promise<number> {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(admins);
    return row?.n ?? 0;
  },

  async findById(db: Executor, id: string): Promise<AdminRecord | undefined> {
    const [row] = await db.select(columns).from(admins).where(eq(admins.id, id));
    return row;
  },

  async findByEmail(db: Executor, email: string): Promise<AdminRecord | undefined> {
    const [row] = await db.select(columns).from(admins).where(eq(admins.email, email));
    return row;
  },

  async list(db: Executor): Promise<AdminRecord[]> {
    return db.select(columns).from(admins).orderBy(asc(admins.createdAt), asc(admins.id));
  },

  /** Throws the driver's unique violation when the e-mail is taken (the caller maps it to 409). */
  async insert(db: Executor, input: NewAdmin): Promise<AdminRecord> {
    const now = new Date();
    const [row] = await db
      .insert(admins)
      .values({
        id: randomUUID(),
        name: input.name,
        email: input.email,
        passwordHash: input.passwordHash,
        role: input.role,
        status: 'active',
        mustChangePassword: input.mustChangePassword ?? false,
        tokensValidFrom: 0,
        createdAt: now,
        updatedAt: now,
      })
      .returning(columns);
    return row as AdminRecord;
  },

  /**
   * Locks the target and every active super admin, in id order, for the rest of the transaction. Two
   * concurrent demotions or disables of the last two super admins serialise here, and the second one sees
   * the first one's result (READ COMMITTED re-checks locked rows against the WHERE clause).
   */
  async lockForRoleChange(
    tx: Tx,
    targetId: string,
  ): Promise<{ target: AdminRecord | undefined; activeSuperAdmins: string[] }> {
    const rows = await tx
      .select(columns)
      .from(admins)
      .where(or(eq(admins.id, targetId), and(eq(admins.role, 'super_admin'), eq(admins.status, 'active'))))
      .orderBy(asc(admins.id))
      .for('update');
    return {
      target: rows.find((r) => r.id === targetId),
      activeSuperAdmins: rows
        .filter((r) => r.role === 'super_admin' && r.status === 'active')
        .map((r) => r.id),
    };
  },

  async lockById(tx: Tx, id: string): Promise<AdminRecord | undefined> {
    const [row] = await tx.select(columns).from(admins).where(eq(admins.id, id)).for('update');
    return row;
  },

  async update(
    db: Executor,
    id: string,
    changes: Partial<
      Pick<
        AdminRecord,
        | 'name'
        | 'email'
        | 'role'
        | 'status'
        | 'passwordHash'
        | 'mustChangePassword'
        | 'tokensValidFrom'
        | 'lastLogin'
      >
    >,
  ): Promise<AdminRecord | undefined> {
    const [row] = await db
      .update(admins)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(admins.id, id))
      .returning(columns);
    return row;
  },

  async recordLogin(db: Executor, id: string, at: Date): Promise<void> {
    await db.update(admins).set({ lastLogin: at }).where(eq(admins.id, id));
  },

  async addAudit(db: Executor, entry: AuditInput): Promise<void> {
    await db.insert(auditLog).values({
      id: randomUUID(),
      actorId: entry.actor?.id ?? null,
      actorName: entry.actor?.name ?? null,
      actorEmail: entry.actor?.email ?? null,
      action: entry.action,
      targetId: entry.target?.id ?? null,
      targetName: entry.target?.name ?? null,
      targetEmail: entry.target?.email ?? null,
      details: entry.details ?? {},
    });
  },

  async listAudit(db: Executor, options: { limit: number; before?: Date }): Promise<AuditEntry[]> {
    const rows = await db
      .select()
      .from(auditLog)
      .where(options.before ? lt(auditLog.createdAt, options.before) : undefined)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(options.limit);
    return rows.map((r) => ({
      id: r.id,
      actor: r.actorId ? { id: r.actorId, name: r.actorName ?? '', email: r.actorEmail ?? '' } : null,
      action: r.action,
      target: r.targetId ? { id: r.targetId, name: r.targetName ?? '', email: r.targetEmail ?? '' } : null,
      details: r.details,
      createdAt: r.createdAt,
    }));
  },
};

import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { json, rows, type Runner, type Tx } from '@readiness/kit/db';
import type { AuditAction } from '@readiness/contracts';

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
  /** Has a confirmed second factor (an authenticator app). */
  mfaEnabled: boolean;
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

/** Which audit entries to list. */
export interface AuditQuery {
  limit: number;
  before?: Date;
  from?: Date;
  to?: Date;
  actorId?: string;
  action?: string;
  /** Part of a name or an e-mail, the actor's or the target's. */
  search?: string;
}

export interface AuditInput {
  actor: { id: string; name: string; email: string } | null;
  /** One of the declared actions (proto/src/audit-actions.ts): each has its words on the screen and in the CSV. */
  action: AuditAction;
  target: { id: string; name: string; email: string } | null;
  details?: Record<string, unknown>;
}

interface AdminRow {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  role: AdminRole;
  status: AdminStatus;
  must_change_password: boolean;
  tokens_valid_from: string | number;
  last_login: Date | string | null;
  created_at: Date | string;
  mfa_enabled: boolean;
}

const COLUMNS = sql`id, name, email, password_hash, role, status, must_change_password, tokens_valid_from, last_login,
  created_at,
  (EXISTS (SELECT 1 FROM admin_totp t WHERE t.admin_id = admins.id AND t.confirmed_at IS NOT NULL)
    OR EXISTS (SELECT 1 FROM admin_passkeys p WHERE p.admin_id = admins.id)) AS mfa_enabled`;

const toAdmin = (r: AdminRow): AdminRecord => ({
  id: r.id,
  name: r.name,
  email: r.email,
  passwordHash: r.password_hash,
  role: r.role,
  status: r.status,
  mustChangePassword: r.must_change_password,
  // bigint: node-postgres hands it over as text.
  tokensValidFrom: Number(r.tokens_valid_from),
  lastLogin: r.last_login === null ? null : new Date(r.last_login),
  createdAt: new Date(r.created_at),
  mfaEnabled: r.mfa_enabled,
});

const admins = async (runner: Runner, query: SQL) => (await rows<AdminRow>(runner, query)).map(toAdmin);

type AdminChanges = Partial<
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
>;

/** The column each changeable field is stored in. */
const CHANGEABLE: Record<keyof AdminChanges, string> = {
  name: 'name',
  email: 'email',
  role: 'role',
  status: 'status',
  passwordHash: 'password_hash',
  mustChangePassword: 'must_change_password',
  tokensValidFrom: 'tokens_valid_from',
  lastLogin: 'last_login',
};

interface AuditRow {
  id: string;
  actor_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  action: string;
  target_id: string | null;
  target_name: string | null;
  target_email: string | null;
  details: Record<string, unknown>;
  created_at: Date | string;
}

/** Repository of admins and the audit log; every function takes the runner so use cases choose the transaction. */
export const adminsRepository = {
  async count(runner: Runner): Promise<number> {
    const [row] = await rows<{ n: number }>(runner, sql`SELECT count(*)::int AS n FROM admins`);
    return row?.n ?? 0;
  },

  async findById(runner: Runner, id: string): Promise<AdminRecord | undefined> {
    const [admin] = await admins(runner, sql`SELECT ${COLUMNS} FROM admins WHERE id = ${id}`);
    return admin;
  },

  async findByEmail(runner: Runner, email: string): Promise<AdminRecord | undefined> {
    const [admin] = await admins(runner, sql`SELECT ${COLUMNS} FROM admins WHERE email = ${email}`);
    return admin;
  },

  list(runner: Runner): Promise<AdminRecord[]> {
    return admins(runner, sql`SELECT ${COLUMNS} FROM admins ORDER BY created_at, id`);
  },

  /** Throws the driver's unique violation when the e-mail is taken (the caller maps it to 409). */
  /** The new admin, or undefined when the e-mail is taken (an expected answer, so not a failed statement). */
  async insert(runner: Runner, input: NewAdmin): Promise<AdminRecord | undefined> {
    const now = new Date().toISOString();
    const [admin] = await admins(
      runner,
      sql`INSERT INTO admins (id, name, email, password_hash, role, status, must_change_password, tokens_valid_from,
            created_at, updated_at)
          VALUES (${randomUUID()}, ${input.name}, ${input.email}, ${input.passwordHash}, ${input.role}, 'active',
            ${input.mustChangePassword ?? false}, 0, ${now}, ${now})
          ON CONFLICT (email) DO NOTHING
          RETURNING ${COLUMNS}`,
    );
    return admin;
  },

  /** Whether another admin than `exceptId` has this e-mail. */
  async emailInUse(runner: Runner, email: string, exceptId: string): Promise<boolean> {
    const found = await rows<{ one: number }>(
      runner,
      sql`SELECT 1 AS one FROM admins WHERE email = ${email} AND id <> ${exceptId} LIMIT 1`,
    );
    return found.length > 0;
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
    const locked = await admins(
      tx,
      sql`SELECT ${COLUMNS} FROM admins
          WHERE id = ${targetId} OR (role = 'super_admin' AND status = 'active')
          ORDER BY id FOR UPDATE`,
    );
    return {
      target: locked.find((r) => r.id === targetId),
      activeSuperAdmins: locked
        .filter((r) => r.role === 'super_admin' && r.status === 'active')
        .map((r) => r.id),
    };
  },

  async lockById(tx: Tx, id: string): Promise<AdminRecord | undefined> {
    const [admin] = await admins(tx, sql`SELECT ${COLUMNS} FROM admins WHERE id = ${id} FOR UPDATE`);
    return admin;
  },

  async update(runner: Runner, id: string, changes: AdminChanges): Promise<AdminRecord | undefined> {
    const set = Object.entries(changes)
      .filter(([field, value]) => value !== undefined && field in CHANGEABLE)
      .map(
        ([field, value]) =>
          sql`${sql.identifier(CHANGEABLE[field as keyof AdminChanges])} = ${value instanceof Date ? value.toISOString() : value}`,
      );
    set.push(sql`updated_at = ${new Date().toISOString()}`);
    const [admin] = await admins(
      runner,
      sql`UPDATE admins SET ${sql.join(set, sql`, `)} WHERE id = ${id} RETURNING ${COLUMNS}`,
    );
    return admin;
  },

  async recordLogin(runner: Runner, id: string, at: Date): Promise<void> {
    await runner.execute(sql`UPDATE admins SET last_login = ${at.toISOString()} WHERE id = ${id}`);
  },

  async addAudit(runner: Runner, entry: AuditInput): Promise<void> {
    await runner.execute(
      sql`INSERT INTO audit_log (id, actor_id, actor_name, actor_email, action, target_id, target_name, target_email,
            details)
          VALUES (${randomUUID()}, ${entry.actor?.id ?? null}, ${entry.actor?.name ?? null},
            ${entry.actor?.email ?? null}, ${entry.action}, ${entry.target?.id ?? null},
            ${entry.target?.name ?? null}, ${entry.target?.email ?? null}, ${json(entry.details ?? {})})`,
    );
  },

  /** Newest first, filtered; `before` is the cursor of the page before (the last entry's time). */
  async listAudit(runner: Runner, options: AuditQuery): Promise<AuditEntry[]> {
    const conditions: SQL[] = [];
    if (options.before) conditions.push(sql`created_at < ${options.before.toISOString()}`);
    if (options.from) conditions.push(sql`created_at >= ${options.from.toISOString()}`);
    if (options.to) conditions.push(sql`created_at < ${options.to.toISOString()}`);
    if (options.actorId) conditions.push(sql`actor_id = ${options.actorId}`);
    if (options.action) conditions.push(sql`action = ${options.action}`);
    if (options.search) {
      const like = `%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conditions.push(
        sql`(target_name ILIKE ${like} OR target_email ILIKE ${like} OR actor_name ILIKE ${like}
          OR actor_email ILIKE ${like})`,
      );
    }
    const where = conditions.length ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
    const entries = await rows<AuditRow>(
      runner,
      sql`SELECT id, actor_id, actor_name, actor_email, action, target_id, target_name, target_email, details,
            created_at
          FROM audit_log ${where} ORDER BY created_at DESC, id DESC LIMIT ${options.limit}`,
    );
    return entries.map((r) => ({
      id: r.id,
      actor: r.actor_id ? { id: r.actor_id, name: r.actor_name ?? '', email: r.actor_email ?? '' } : null,
      action: r.action,
      target: r.target_id
        ? { id: r.target_id, name: r.target_name ?? '', email: r.target_email ?? '' }
        : null,
      details: r.details,
      createdAt: new Date(r.created_at),
    }));
  },
};

import { sql, type SQL } from 'drizzle-orm';
import type { Language } from '@readiness/contracts';
import { rows, type Runner } from '@readiness/kit/db';

export type StudentStatus = 'invited' | 'started' | 'completed';

export interface StudentRecord {
  id: string;
  name: string;
  email: string;
  phoneNumber: string | null;
  status: StudentStatus;
  extraTimePercent: number;
  /** Chosen at invitation or by the student's last switch; null: not chosen (the browser's, English in mails). */
  language: Language | null;
  sealedToken: string;
  invitedAt: Date;
  expiresAt: Date;
  createdAt: Date;
  /** Reminders sent so far (the job's and administrators'). */
  reminderCount: number;
  /** When the last reminder was sent; null: never. */
  lastRemindedAt: Date | null;
}

export interface NewStudent {
  name: string;
  email: string;
  phoneNumber: string | null;
  extraTimePercent: number;
  language: Language | null;
  tokenHash: Buffer;
  sealedToken: string;
  expiresAt: Date;
}

interface StudentRow {
  id: string;
  name: string;
  email: string;
  phone_number: string | null;
  status: StudentStatus;
  extra_time_percent: number;
  language: Language | null;
  sealed_token: string;
  invited_at: Date | string;
  expires_at: Date | string;
  created_at: Date | string;
  reminder_count: number;
  last_reminded_at: Date | string | null;
}

const COLUMNS = sql`id, name, email, phone_number, status, extra_time_percent, language, sealed_token, invited_at, expires_at, created_at,
  reminder_count, last_reminded_at`;

const toStudent = (r: StudentRow): StudentRecord => ({
  id: r.id,
  name: r.name,
  email: r.email,
  phoneNumber: r.phone_number,
  status: r.status,
  extraTimePercent: r.extra_time_percent,
  language: r.language,
  sealedToken: r.sealed_token,
  invitedAt: new Date(r.invited_at),
  expiresAt: new Date(r.expires_at),
  createdAt: new Date(r.created_at),
  reminderCount: r.reminder_count,
  lastRemindedAt: r.last_reminded_at === null ? null : new Date(r.last_reminded_at),
});

/** `%`, `_` and `\` match themselves in a search. */
export const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const CHUNK = 1000;

/**
 * Inserts the students in chunks of multi-row statements; when any e-mail is already taken nothing is inserted
 * for it and `taken` names it (the caller rolls back to keep the import all-or-nothing).
 */
export async function insertStudents(
  tx: Runner,
  students: NewStudent[],
): Promise<{ inserted: StudentRecord[]; taken: boolean }> {
  const inserted: StudentRecord[] = [];
  for (let i = 0; i < students.length; i += CHUNK) {
    const chunk = students.slice(i, i + CHUNK);
    const values = sql.join(
      chunk.map(
        (s) =>
          sql`(${s.name}, ${s.email}, ${s.phoneNumber}, ${s.extraTimePercent}, ${s.language}, ${s.tokenHash}, ${s.sealedToken}, ${s.expiresAt.toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    const found = await rows<StudentRow>(
      tx,
      sql`INSERT INTO students (name, email, phone_number, extra_time_percent, language, token_hash, sealed_token, expires_at)
          VALUES ${values} ON CONFLICT (email) WHERE email <> '' DO NOTHING RETURNING ${COLUMNS}`,
    );
    if (found.length !== chunk.length) return { inserted: [], taken: true };
    inserted.push(...found.map(toStudent));
  }
  return { inserted, taken: false };
}

/**
 * Which of these (normalized) e-mails already belong to a student. One array parameter joined against the table:
 * an `IN (...)` list lets the planner pick the trigram search index for equality, which after a bulk import
 * (a long GIN pending list) costs seconds per thousand addresses.
 */
export async function takenEmails(runner: Runner, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const found = await rows<{ email: string }>(
    runner,
    sql`SELECT s.email FROM unnest(${sql.param(emails)}::text[]) AS wanted(email)
        JOIN students s ON s.email = wanted.email`,
  );
  return new Set(found.map((r) => r.email));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Student ids are UUIDs: any other id names no student (and never reaches PostgreSQL's uuid parser). */
export const isStudentId = (id: string) => UUID.test(id);

export async function findStudent(
  tx: Runner,
  id: string,
  forUpdate = false,
): Promise<StudentRecord | undefined> {
  if (!isStudentId(id)) return undefined;
  const [row] = await rows<StudentRow>(
    tx,
    sql`SELECT ${COLUMNS} FROM students WHERE id = ${id} ${forUpdate ? sql`FOR UPDATE` : sql``}`,
  );
  return row && toStudent(row);
}

export async function findByTokenHash(tx: Runner, hash: Buffer): Promise<StudentRecord | undefined> {
  const [row] = await rows<StudentRow>(tx, sql`SELECT ${COLUMNS} FROM students WHERE token_hash = ${hash}`);
  return row && toStudent(row);
}

export async function renewInvitation(
  tx: Runner,
  id: string,
  input: { tokenHash: Buffer; sealedToken: string; expiresAt: Date },
): Promise<StudentRecord> {
  const [row] = await rows<StudentRow>(
    tx,
    sql`UPDATE students SET token_hash = ${input.tokenHash}, sealed_token = ${input.sealedToken},
          expires_at = ${input.expiresAt}, invited_at = now()
        WHERE id = ${id} RETURNING ${COLUMNS}`,
  );
  return toStudent(row!);
}

/** A resend of a link still valid: the same link, valid for longer. */
export async function extendInvitation(tx: Runner, id: string, expiresAt: Date): Promise<StudentRecord> {
  const [row] = await rows<StudentRow>(
    tx,
    sql`UPDATE students SET expires_at = ${expiresAt}, invited_at = now() WHERE id = ${id} RETURNING ${COLUMNS}`,
  );
  return toStudent(row!);
}

export async function setExtraTime(
  tx: Runner,
  id: string,
  percent: number,
): Promise<StudentRecord | undefined> {
  if (!isStudentId(id)) return undefined;
  const [row] = await rows<StudentRow>(
    tx,
    sql`UPDATE students SET extra_time_percent = ${percent} WHERE id = ${id} RETURNING ${COLUMNS}`,
  );
  return row && toStudent(row);
}

export async function deleteStudent(tx: Runner, id: string): Promise<StudentRecord | undefined> {
  if (!isStudentId(id)) return undefined;
  const [row] = await rows<StudentRow>(tx, sql`DELETE FROM students WHERE id = ${id} RETURNING ${COLUMNS}`);
  return row && toStudent(row);
}

/** The admin list's filter: a status, and a substring of the name or e-mail. */
export interface StudentFilter {
  search?: string;
  status?: StudentStatus;
}

const filterConditions = (q: StudentFilter): SQL[] => {
  const where: SQL[] = [];
  if (q.status) where.push(sql`status = ${q.status}`);
  if (q.search) {
    const p = likePattern(q.search);
    where.push(sql`(name ILIKE ${p} OR email ILIKE ${p})`);
  }
  return where;
};

export async function listStudents(
  runner: Runner,
  q: StudentFilter & { page: number; limit: number },
): Promise<{ students: StudentRecord[]; total: number }> {
  const where = filterConditions(q);
  const clause = where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``;
  const [count] = await rows<{ n: string | number }>(
    runner,
    sql`SELECT count(*) AS n FROM students ${clause}`,
  );
  const found = await rows<StudentRow>(
    runner,
    sql`SELECT ${COLUMNS} FROM students ${clause} ORDER BY created_at DESC, id DESC
        LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}`,
  );
  return { students: found.map(toStudent), total: Number(count?.n ?? 0) };
}

export async function audit(
  tx: Runner,
  entry: { actorId: string; action: string; studentId?: string; details?: Record<string, unknown> },
): Promise<void> {
  await tx.execute(
    sql`INSERT INTO student_audit (actor_id, action, student_id, details)
        VALUES (${entry.actorId}, ${entry.action}, ${entry.studentId ?? null}, ${JSON.stringify(entry.details ?? {})}::jsonb)`,
  );
}

/**
 * What makes an invited student remindable at `now`: not started, the link still open, not reminded since `dayStart`
 * (the start of the UTC day). The same conditions guard the write itself, so a reminder is never written twice on a
 * day whoever (a replica's job, an administrator) gets to the row first.
 */
const remindable = (now: Date, dayStart: Date) =>
  sql`status = 'invited' AND expires_at > ${now}
      AND (last_reminded_at IS NULL OR last_reminded_at < ${dayStart})`;

/**
 * A page of the reminder job's candidates after `afterId` in id order, locked: a row another replica holds is
 * skipped (SKIP LOCKED), not waited for. Each is remindable, under `max`, and invited before `invitedBefore` or
 * expiring before `expiringBefore` (no moment of the schedule can have passed for the others); whether one is due is
 * the domain's rule.
 */
export async function lockReminderCandidates(
  tx: Runner,
  q: {
    afterId: string;
    limit: number;
    max: number;
    now: Date;
    dayStart: Date;
    invitedBefore: Date | null;
    expiringBefore: Date | null;
  },
): Promise<StudentRecord[]> {
  const owed = [
    ...(q.invitedBefore ? [sql`invited_at <= ${q.invitedBefore}`] : []),
    ...(q.expiringBefore ? [sql`expires_at <= ${q.expiringBefore}`] : []),
  ];
  if (owed.length === 0) return [];
  const found = await rows<StudentRow>(
    tx,
    sql`SELECT ${COLUMNS} FROM students
        WHERE id > ${q.afterId} AND ${remindable(q.now, q.dayStart)} AND reminder_count < ${q.max}
          AND (${sql.join(owed, sql` OR `)})
        ORDER BY id LIMIT ${q.limit} FOR UPDATE SKIP LOCKED`,
  );
  return found.map(toStudent);
}

/** Counts one reminder on the student when still remindable (see `remindable`); undefined when not. */
export async function markReminded(
  tx: Runner,
  id: string,
  now: Date,
  dayStart: Date,
): Promise<StudentRecord | undefined> {
  const [row] = await rows<StudentRow>(
    tx,
    sql`UPDATE students SET reminder_count = reminder_count + 1, last_reminded_at = ${now}
        WHERE id = ${id} AND ${remindable(now, dayStart)} RETURNING ${COLUMNS}`,
  );
  return row && toStudent(row);
}

/** Counts one reminder on every remindable student of the filter at once; each row as it is after. */
export async function markFilterReminded(
  tx: Runner,
  q: StudentFilter & { now: Date; dayStart: Date },
): Promise<StudentRecord[]> {
  const where = [...filterConditions(q), remindable(q.now, q.dayStart)];
  const found = await rows<StudentRow>(
    tx,
    sql`UPDATE students SET reminder_count = reminder_count + 1, last_reminded_at = ${q.now}
        WHERE ${sql.join(where, sql` AND `)} RETURNING ${COLUMNS}`,
  );
  return found.map(toStudent);
}

/** How many students of the filter a reminder would reach now. */
export async function countRemindable(
  runner: Runner,
  q: StudentFilter & { now: Date; dayStart: Date },
): Promise<number> {
  const where = [...filterConditions(q), remindable(q.now, q.dayStart)];
  const [count] = await rows<{ n: string | number }>(
    runner,
    sql`SELECT count(*) AS n FROM students WHERE ${sql.join(where, sql` AND `)}`,
  );
  return Number(count?.n ?? 0);
}

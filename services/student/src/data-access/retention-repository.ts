import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';

/** The data retention setting as saved: on or off, the months, and who saved it when. */
export interface SavedRetentionSettings {
  enabled: boolean;
  months: number;
  updatedAt: Date;
  updatedBy: string;
}

interface SettingsRow {
  enabled: boolean;
  months: number;
  updated_at: Date | string;
  updated_by: string;
}

/** The saved setting, or undefined when none was saved (retention is off). */
export async function findRetentionSettings(
  runner: Runner,
  forUpdate = false,
): Promise<SavedRetentionSettings | undefined> {
  const [row] = await rows<SettingsRow>(
    runner,
    sql`SELECT enabled, months, updated_at, updated_by FROM retention_settings ${forUpdate ? sql`FOR UPDATE` : sql``}`,
  );
  return (
    row && {
      enabled: row.enabled,
      months: row.months,
      updatedAt: new Date(row.updated_at),
      updatedBy: row.updated_by,
    }
  );
}

export async function saveRetentionSettings(
  runner: Runner,
  s: { enabled: boolean; months: number; updatedBy: string },
): Promise<void> {
  await runner.execute(
    sql`INSERT INTO retention_settings (enabled, months, updated_by) VALUES (${s.enabled}, ${s.months}, ${s.updatedBy})
        ON CONFLICT (only_row) DO UPDATE SET enabled = EXCLUDED.enabled, months = EXCLUDED.months,
          updated_at = now(), updated_by = EXCLUDED.updated_by`,
  );
}

/**
 * A student's last activity (migration 0014): the newest of the invitation or its last resend, the last reminder, the
 * last LMS launch, and each attempt's start, last save and submit. GREATEST skips the NULLs.
 */
const LAST_ACTIVITY = sql`GREATEST(s.invited_at, s.last_reminded_at,
  (SELECT max(GREATEST(a.started_at, a.saved_at, a.submitted_at)) FROM attempts a WHERE a.student_id = s.id),
  (SELECT max(t.used_at) FROM lti_launch_tickets t WHERE t.student_id = s.id))`;

/** Due for erasure: last active before `cutoff`, and no attempt in progress. */
const due = (cutoff: Date) =>
  sql`${LAST_ACTIVITY} < ${cutoff.toISOString()}::timestamptz
      AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a.student_id = s.id AND a.status = 'in_progress')`;

/** How many students are due for erasure at `cutoff`, and the oldest last activity among them (null: none). */
export async function countDueForErasure(
  runner: Runner,
  cutoff: Date,
): Promise<{ count: number; oldestActivityAt: Date | null }> {
  const [row] = await rows<{ n: string | number; oldest: Date | string | null }>(
    runner,
    sql`SELECT count(*) AS n, min(${LAST_ACTIVITY}) AS oldest FROM students s WHERE ${due(cutoff)}`,
  );
  return {
    count: Number(row?.n ?? 0),
    oldestActivityAt: row?.oldest ? new Date(row.oldest) : null,
  };
}

/** A page of the students due for erasure at `cutoff`, after `afterId` in id order (the retention job's keyset). */
export async function dueForErasure(
  runner: Runner,
  q: { cutoff: Date; afterId: string; limit: number },
): Promise<string[]> {
  const found = await rows<{ id: string }>(
    runner,
    sql`SELECT s.id FROM students s WHERE s.id > ${q.afterId} AND ${due(q.cutoff)} ORDER BY s.id LIMIT ${q.limit}`,
  );
  return found.map((r) => r.id);
}

/**
 * Locks the student's row when it is free and they are still due at `cutoff`, read after the lock (a fresh statement):
 * while it is held nobody can start an attempt (the attempt's reference to the row waits), be resent or reminded.
 * False when the student is gone, another transaction holds the row (another replica erasing them, or a Start), or
 * they are no longer due.
 */
export async function lockIfStillDue(tx: Runner, id: string, cutoff: Date): Promise<boolean> {
  const [locked] = await rows<{ id: string }>(
    tx,
    sql`SELECT id FROM students WHERE id = ${id} FOR UPDATE SKIP LOCKED`,
  );
  if (!locked) return false;
  const [still] = await rows<{ id: string }>(
    tx,
    sql`SELECT s.id FROM students s WHERE s.id = ${id} AND ${due(cutoff)}`,
  );
  return still !== undefined;
}

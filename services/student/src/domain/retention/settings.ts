import { badRequest, conflict } from '@readiness/kit/errors';
import type { Database } from '@readiness/kit/db';
import {
  countDueForErasure,
  findRetentionSettings,
  saveRetentionSettings,
} from '../../data-access/retention-repository';
import { audit } from '../../data-access/students-repository';
import { RETENTION_OFF, needsConfirmation, retentionCutoff, type RetentionPolicy } from './rules';

/** The setting in force, and since when and by whom a super admin saved it (null: never saved, off). */
export interface RetentionSettings extends RetentionPolicy {
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** What N months would erase now: how many students, and the oldest last activity among them. */
export interface RetentionDryRun {
  months: number;
  /** Students whose last activity is older than this are erased. */
  cutoff: Date;
  count: number;
  /** null when nobody would be erased. */
  oldestActivityAt: Date | null;
}

export const COUNT_REQUIRED_MESSAGE =
  'Run the dry run first: switching retention on or shortening it needs the number of students it erases now (expectedCount)';

export const countGrewMessage = (count: number, expected: number) =>
  `${count} students would be erased now, more than the ${expected} you confirmed: run the dry run again`;

export async function retentionSettings(deps: { database: Database }): Promise<RetentionSettings> {
  const saved = await findRetentionSettings(deps.database.db);
  return saved ?? { ...RETENTION_OFF, updatedAt: null, updatedBy: null };
}

export async function retentionDryRun(
  deps: { database: Database },
  months: number,
  now = new Date(),
): Promise<RetentionDryRun> {
  const cutoff = retentionCutoff(months, now);
  return { months, cutoff, ...(await countDueForErasure(deps.database.db, cutoff)) };
}

/**
 * A super admin's setting, in force from the job's next pass and audited. Switching retention on or shortening N
 * (`needsConfirmation`) needs `expectedCount`, the dry run's count the super admin saw: 400 without it, 409 when
 * more students are due now than that (nobody erases more than they saw). Fewer is fine.
 */
export async function updateRetentionSettings(
  deps: { database: Database },
  input: RetentionPolicy & { expectedCount?: number },
  actorId: string,
  now = new Date(),
): Promise<RetentionSettings> {
  const next = { enabled: input.enabled, months: input.months };
  await deps.database.transaction(async (tx) => {
    // One change at a time: a second super admin's save waits for this one and is checked against it.
    const current = (await findRetentionSettings(tx, true)) ?? RETENTION_OFF;
    let confirmedCount: number | undefined;
    if (needsConfirmation(current, next)) {
      if (input.expectedCount === undefined)
        throw badRequest(COUNT_REQUIRED_MESSAGE, 'retention_count_required');
      const { count } = await countDueForErasure(tx, retentionCutoff(next.months, now));
      if (count > input.expectedCount) {
        throw conflict(countGrewMessage(count, input.expectedCount), 'retention_count_changed');
      }
      confirmedCount = count;
    }
    await saveRetentionSettings(tx, { ...next, updatedBy: actorId });
    await audit(tx, {
      actorId,
      action: 'student.retention-settings-changed',
      details: {
        ...next,
        previous: { enabled: current.enabled, months: current.months },
        ...(confirmedCount === undefined ? {} : { confirmedCount }),
      },
    });
  });
  return retentionSettings(deps);
}

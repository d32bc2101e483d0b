import type { Database } from '@readiness/kit/db';
import { findReminderSettings, saveReminderSettings } from '../../data-access/reminder-settings-repository';
import { audit } from '../../data-access/students-repository';
import type { ReminderSchedule } from './schedule';

/** The schedule in force, and since when an administrator set it (null: the configuration's REMINDER_*). */
export interface ReminderSettings extends ReminderSchedule {
  afterDays: number[];
  updatedAt: Date | null;
}

/** What the reminder settings read and fall back to. */
export interface ReminderSettingsDeps {
  database: Database;
  /** The configuration's schedule (REMINDER_*), in force until an administrator saves one. */
  reminders: ReminderSchedule;
}

export async function reminderSettings(deps: ReminderSettingsDeps): Promise<ReminderSettings> {
  const saved = await findReminderSettings(deps.database.db);
  if (saved) {
    const { afterDays, beforeExpiryHours, max, updatedAt } = saved;
    return { afterDays, beforeExpiryHours, max, updatedAt };
  }
  return { ...deps.reminders, afterDays: [...deps.reminders.afterDays], updatedAt: null };
}

/** An administrator's schedule, in force from the job's next pass; the days kept in order, once each. */
export async function updateReminderSettings(
  deps: ReminderSettingsDeps,
  input: ReminderSchedule,
  actorId: string,
): Promise<ReminderSettings> {
  const afterDays = [...new Set(input.afterDays)].sort((a, b) => a - b);
  const settings = { afterDays, beforeExpiryHours: input.beforeExpiryHours, max: input.max };
  await deps.database.transaction(async (tx) => {
    await saveReminderSettings(tx, { ...settings, updatedBy: actorId });
    await audit(tx, { actorId, action: 'student.reminder-settings-changed', details: settings });
  });
  return reminderSettings(deps);
}

import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';

/** The reminder settings as saved: the schedule, and who saved it when. */
export interface SavedReminderSettings {
  afterDays: number[];
  beforeExpiryHours: number;
  max: number;
  updatedAt: Date;
  updatedBy: string;
}

interface SettingsRow {
  after_days: number[];
  before_expiry_hours: number;
  max_reminders: number;
  updated_at: Date | string;
  updated_by: string;
}

/** The saved settings, or undefined when none were saved (the configuration's apply). */
export async function findReminderSettings(runner: Runner): Promise<SavedReminderSettings | undefined> {
  const [row] = await rows<SettingsRow>(
    runner,
    sql`SELECT after_days, before_expiry_hours, max_reminders, updated_at, updated_by FROM reminder_settings`,
  );
  return (
    row && {
      afterDays: row.after_days,
      beforeExpiryHours: row.before_expiry_hours,
      max: row.max_reminders,
      updatedAt: new Date(row.updated_at),
      updatedBy: row.updated_by,
    }
  );
}

export async function saveReminderSettings(
  runner: Runner,
  s: { afterDays: number[]; beforeExpiryHours: number; max: number; updatedBy: string },
): Promise<void> {
  const days = sql`${`{${s.afterDays.join(',')}}`}::integer[]`;
  await runner.execute(
    sql`INSERT INTO reminder_settings (after_days, before_expiry_hours, max_reminders, updated_by)
        VALUES (${days}, ${s.beforeExpiryHours}, ${s.max}, ${s.updatedBy})
        ON CONFLICT (only_row) DO UPDATE SET after_days = EXCLUDED.after_days,
          before_expiry_hours = EXCLUDED.before_expiry_hours, max_reminders = EXCLUDED.max_reminders,
          updated_at = now(), updated_by = EXCLUDED.updated_by`,
  );
}

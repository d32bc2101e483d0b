import { every } from '@readiness/kit/runtime';
import type { Students } from '../../domain/students';

/**
 * Reminds invited students who have not started, as the REMINDER_* settings say. Every replica runs it; each locks
 * the rows it reminds and nobody is reminded twice on one day (domain/reminders/send-due-reminders.ts).
 */
export const reminderJob = (students: Students, intervalMs: number) =>
  every('student-reminders', intervalMs, () => students.sendDueReminders());

import type { StudentFilter, StudentStatus } from '../../data-access/students-repository';
import type { ReminderSchedule } from '../reminders/schedule';
import { sendDueReminders } from '../reminders/send-due-reminders';
import { reminderSettings, updateReminderSettings } from '../reminders/settings';
import { eraseDueStudents } from '../retention/erase-due-students';
import type { RetentionPolicy } from '../retention/rules';
import { retentionDryRun, retentionSettings, updateRetentionSettings } from '../retention/settings';
import { acceptLtiLaunch } from './accept-lti-launch';
import type { StudentInput, StudentsDeps } from './context';
import { importStudents, type ImportRow } from './import-students';
import { inviteStudent } from './invite-students';
import { listStudentViews, removeStudent, setStudentExtraTime, studentByToken } from './manage-students';
import { remindFiltered, remindStudent } from './remind-students';
import { resendInvitation } from './resend-invitation';

export {
  ALREADY_INVITED_MESSAGE,
  INVALID_INVITATION_MESSAGE,
  STUDENT_NOT_FOUND_MESSAGE,
  type StudentInput,
  type StudentView,
  type StudentsDeps,
} from './context';
export type { ImportRow, ImportRowProblem } from './import-students';
export { LAUNCH_REFUSED_MESSAGE } from './accept-lti-launch';

/**
 * The student service's admin use cases, one module each. Every change writes its audit row and event in one
 * transaction.
 */
export function createStudents(deps: StudentsDeps) {
  return {
    list: (q: { search?: string; status?: StudentStatus; page: number; limit: number }) =>
      listStudentViews(deps, q),
    invite: (input: StudentInput, actorId: string) => inviteStudent(deps, input, actorId),
    resend: (id: string, actorId: string) => resendInvitation(deps, id, actorId),
    remind: (id: string, actorId: string) => remindStudent(deps, id, actorId),
    remindFiltered: (filter: StudentFilter, options: { dryRun: boolean; actorId: string }) =>
      remindFiltered(deps, filter, options),
    sendDueReminders: () => sendDueReminders(deps),
    reminderSettings: () => reminderSettings(deps),
    updateReminderSettings: (input: ReminderSchedule, actorId: string) =>
      updateReminderSettings(deps, input, actorId),
    retentionSettings: () => retentionSettings(deps),
    retentionDryRun: (months: number) => retentionDryRun(deps, months),
    updateRetentionSettings: (input: RetentionPolicy & { expectedCount?: number }, actorId: string) =>
      updateRetentionSettings(deps, input, actorId),
    eraseDueStudents: () => eraseDueStudents(deps),
    setExtraTime: (id: string, percent: number, actorId: string) =>
      setStudentExtraTime(deps, id, percent, actorId),
    remove: (id: string, actorId: string) => removeStudent(deps, id, actorId),
    importRows: (rows: ImportRow[], options: { dryRun: boolean; actorId: string }) =>
      importStudents(deps, rows, options),
    byToken: (token: string) => studentByToken(deps, token),
    acceptLtiLaunch: (sealedTicket: string) => acceptLtiLaunch(deps, sealedTicket),
  };
}

export type Students = ReturnType<typeof createStudents>;

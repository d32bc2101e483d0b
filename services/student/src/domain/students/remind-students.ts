import type { Tx } from '@readiness/kit/db';
import { conflict, notFound, unavailable } from '@readiness/kit/errors';
import { enqueueMany } from '@readiness/kit/outbox';
import {
  audit,
  countRemindable,
  findStudent,
  markFilterReminded,
  markReminded,
  type StudentFilter,
  type StudentRecord,
} from '../../data-access/students-repository';
import { activeVersionSummary } from '../../data-access/versions-repository';
import { REMINDER_REQUESTED, reminderPayload } from '../events';
import { adminReminderRefusal, utcDayStart, type ReminderTrigger } from '../reminders/schedule';
import {
  STUDENT_NOT_FOUND_MESSAGE,
  invitation,
  openedToken,
  studentView,
  type StudentsDeps,
  type StudentView,
} from './context';

const REFUSALS = {
  started: ['The student has already started the assessment', 'student_started'],
  expired: ['The invitation has expired: resend it instead', 'invitation_expired'],
  'reminded-today': ['The student was already reminded today', 'reminded_today'],
} as const;

/** A student counted as reminded, and why. */
export interface Reminded {
  student: StudentRecord;
  trigger: ReminderTrigger;
}

/**
 * Writes the reminders of students already counted (`markReminded`) in the caller's transaction, one event each
 * with the link the student has: never a new one, and the expiry stays as it is.
 */
export async function writeReminders(
  deps: StudentsDeps,
  tx: Tx,
  reminded: Reminded[],
  actorId: string,
): Promise<void> {
  if (reminded.length === 0) return;
  const assessment = await activeVersionSummary(tx);
  const events = reminded.map(({ student, trigger }) => {
    const token = openedToken(deps, student.sealedToken);
    if (token === undefined) throw unavailable('An invitation link cannot be read: check EVENT_SECRETS_KEY');
    const facts = invitation(deps, student, token, actorId, assessment);
    return { name: REMINDER_REQUESTED, payload: reminderPayload(facts, trigger, student.reminderCount) };
  });
  await enqueueMany(tx, events);
}

/**
 * "Send a reminder now" for one student: the invitation mailed again with the link they have and its expiry
 * unchanged (unlike a resend). Refused (409) for a student who started, an expired link, or one reminded today.
 */
export async function remindStudent(
  deps: StudentsDeps,
  id: string,
  actorId: string,
  now = new Date(),
): Promise<StudentView> {
  const reminded = await deps.database.transaction(async (tx) => {
    const current = await findStudent(tx, id, true);
    if (!current) throw notFound(STUDENT_NOT_FOUND_MESSAGE, 'student_not_found');
    const refusal = adminReminderRefusal(current, now);
    if (refusal) throw conflict(REFUSALS[refusal][0], REFUSALS[refusal][1]);
    const student = (await markReminded(tx, id, now, utcDayStart(now)))!;
    await writeReminders(deps, tx, [{ student, trigger: 'admin' }], actorId);
    await audit(tx, {
      actorId,
      action: 'student.reminded',
      studentId: id,
      details: { reminderNumber: student.reminderCount },
    });
    return student;
  });
  return studentView(deps, reminded);
}

/**
 * "Send a reminder now" for every student of the admin list's filter who can be reminded (invited, the link open,
 * not reminded today), in one transaction; with `dryRun`, only how many that is (the confirmation's count).
 */
export async function remindFiltered(
  deps: StudentsDeps,
  filter: StudentFilter,
  options: { dryRun: boolean; actorId: string },
  now = new Date(),
): Promise<number> {
  const q = { ...filter, now, dayStart: utcDayStart(now) };
  if (options.dryRun) return countRemindable(deps.database.db, q);
  return deps.database.transaction(async (tx) => {
    const students = await markFilterReminded(tx, q);
    await writeReminders(
      deps,
      tx,
      students.map((student) => ({ student, trigger: 'admin' as const })),
      options.actorId,
    );
    await audit(tx, {
      actorId: options.actorId,
      action: 'student.reminded',
      details: { count: students.length, ...filter },
    });
    return students.length;
  });
}

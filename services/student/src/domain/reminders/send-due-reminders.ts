import { lockReminderCandidates, markReminded } from '../../data-access/students-repository';
import { openedToken, type StudentsDeps } from '../students/context';
import { writeReminders, type Reminded } from '../students/remind-students';
import { dueReminder, scheduleWindow, utcDayStart } from './schedule';
import { reminderSettings } from './settings';

const NO_ID = '00000000-0000-0000-0000-000000000000';

/**
 * One pass of the reminder job, on the schedule in force (an administrator's, else the configuration's): every
 * invited student who is owed a reminder now (`dueReminder`) gets one, a page of 100 students per transaction in id
 * order. Every replica runs it at once safely: a page's rows are locked and another replica's pass skips them (SKIP
 * LOCKED), and the reminder is counted by a conditional write that refuses a student reminded since the start of the
 * UTC day, so nobody is reminded twice on one day. Answers how many were.
 */
export async function sendDueReminders(
  deps: StudentsDeps,
  now = new Date(),
  pageSize = 100,
): Promise<number> {
  const schedule = await reminderSettings(deps);
  if (schedule.max === 0) return 0;
  const dayStart = utcDayStart(now);
  const { invitedBefore, expiringBefore } = scheduleWindow(schedule, now);
  let afterId = NO_ID;
  let sent = 0;
  for (;;) {
    const page = await deps.database.transaction(async (tx) => {
      const candidates = await lockReminderCandidates(tx, {
        afterId,
        limit: pageSize,
        max: schedule.max,
        now,
        dayStart,
        invitedBefore,
        expiringBefore,
      });
      const reminded: Reminded[] = [];
      for (const candidate of candidates) {
        const trigger = dueReminder(candidate, schedule, now);
        if (!trigger) continue;
        if (openedToken(deps, candidate.sealedToken) === undefined) {
          deps.logger.warn({ studentId: candidate.id }, 'not reminded: the invitation link cannot be read');
          continue;
        }
        const student = await markReminded(tx, candidate.id, now, dayStart);
        if (student) reminded.push({ student, trigger });
      }
      await writeReminders(deps, tx, reminded, '');
      return { last: candidates.at(-1)?.id, scanned: candidates.length, reminded: reminded.length };
    });
    sent += page.reminded;
    if (page.scanned < pageSize || !page.last) return sent;
    afterId = page.last;
  }
}

import { dueForErasure, lockIfStillDue } from '../../data-access/retention-repository';
import type { StudentsDeps } from '../students/context';
import { SYSTEM_ACTOR, removeStudent } from '../students/manage-students';
import { retentionCutoff } from './rules';
import { retentionSettings } from './settings';

const NO_ID = '00000000-0000-0000-0000-000000000000';

/**
 * One pass of the retention job: when a super admin switched retention on, every student whose last activity is older
 * than N months and who has no attempt in progress is erased through the administrator's erasure (`removeStudent`:
 * the rows, the answer files, student.student.deleted.v1 for every other service's copy, the audit), by the system
 * for the reason "retention". Pages of `pageSize` students in id order; each student in a transaction of its own that
 * first locks their row and reads again whether they are still due (SKIP LOCKED: a row another replica is erasing,
 * or a Start holds, is left to it and to the next pass). So every replica runs it at once safely and each student is
 * erased once. Answers how many this pass erased.
 */
export async function eraseDueStudents(
  deps: StudentsDeps,
  now = new Date(),
  pageSize = 100,
): Promise<number> {
  const settings = await retentionSettings(deps);
  if (!settings.enabled) return 0;
  const cutoff = retentionCutoff(settings.months, now);
  let afterId = NO_ID;
  let erased = 0;
  for (;;) {
    const page = await dueForErasure(deps.database.db, { cutoff, afterId, limit: pageSize });
    for (const id of page) {
      const done = await removeStudent(deps, id, SYSTEM_ACTOR, {
        reason: 'retention',
        lockIfDue: (tx) => lockIfStillDue(tx, id, cutoff),
      });
      if (done) erased++;
    }
    if (page.length < pageSize) break;
    afterId = page.at(-1)!;
  }
  if (erased > 0)
    deps.logger.info({ erased, months: settings.months }, 'students erased by the retention setting');
  return erased;
}

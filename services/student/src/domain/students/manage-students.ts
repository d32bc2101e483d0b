import { notFound } from '@readiness/kit/errors';
import type { Tx } from '@readiness/kit/db';
import { enqueue } from '@readiness/kit/outbox';
import {
  audit,
  deleteStudent,
  findByTokenHash,
  listStudents,
  setExtraTime,
  type StudentStatus,
} from '../../data-access/students-repository';
import { applyExtraTime } from '../../data-access/live-repository';
import { EXTRA_TIME_CHANGED, STUDENT_DELETED, deletedPayload, extraTimePayload } from '../events';
import { tokenHash } from '../tokens';
import {
  INVALID_INVITATION_MESSAGE,
  STUDENT_NOT_FOUND_MESSAGE,
  studentView,
  type StudentsDeps,
  type StudentView,
} from './context';

export async function listStudentViews(
  deps: StudentsDeps,
  q: { search?: string; status?: StudentStatus; page: number; limit: number },
) {
  const { students, total } = await listStudents(deps.database.db, q);
  return { students: students.map((s) => studentView(deps, s)), total };
}

export async function setStudentExtraTime(
  deps: StudentsDeps,
  id: string,
  percent: number,
  actorId: string,
): Promise<StudentView> {
  const updated = await deps.database.transaction(async (tx) => {
    const student = await setExtraTime(tx, id, percent);
    if (!student) throw notFound(STUDENT_NOT_FOUND_MESSAGE, 'student_not_found');
    // An attempt running now gets the time the new extra time allows; it never loses time it was given.
    await applyExtraTime(tx, id, percent);
    await audit(tx, {
      actorId,
      action: 'student.extra-time-set',
      studentId: id,
      details: { extraTimePercent: percent },
    });
    await enqueue(tx, { name: EXTRA_TIME_CHANGED, payload: extraTimePayload(student, actorId) });
    return student;
  });
  return studentView(deps, updated);
}

/** The actor of what the product does by itself (the retention job's erasures), in the audit and the events. */
export const SYSTEM_ACTOR = 'system';

/** An erasure the product decides on its own, and how it makes sure the student is still due once it holds them. */
export interface ProductErasure {
  /** Why: kept in the audit and carried by the event. */
  reason: 'retention';
  /**
   * Locks the student and answers whether they are still to be erased; false (gone, held by another transaction, or
   * no longer due) erases nothing and is no error.
   */
  lockIfDue(tx: Tx): Promise<boolean>;
}

/**
 * Erases the student: their rows, their answer files, and (through the event) every other service's copy. An
 * administrator's Delete (404 when there is no such student), or the product's own `erasure` (the retention job),
 * whose actor is the system; answers whether the student was erased.
 */
export async function removeStudent(
  deps: StudentsDeps,
  id: string,
  actorId: string,
  erasure?: ProductErasure,
): Promise<boolean> {
  const erased = await deps.database.transaction(async (tx) => {
    if (erasure && !(await erasure.lockIfDue(tx))) return false;
    const gone = await deleteStudent(tx, id);
    if (!gone) throw notFound(STUDENT_NOT_FOUND_MESSAGE, 'student_not_found');
    const reason = erasure?.reason ?? '';
    await enqueue(tx, {
      name: STUDENT_DELETED,
      payload: deletedPayload({ studentId: id, email: gone.email, actorId, reason }),
    });
    // The audit keeps that a student was erased (and why, when the product did), not who they were.
    await audit(tx, {
      actorId,
      action: 'student.deleted',
      studentId: id,
      ...(reason ? { details: { reason } } : {}),
    });
    return true;
  });
  if (erased) await deps.removeStudentFiles(id);
  return erased;
}

/** The student behind a link: unknown, expired and deleted tokens are one and the same 404. */
export async function studentByToken(deps: StudentsDeps, token: string) {
  const student = await findByTokenHash(deps.database.db, tokenHash(token));
  if (!student || (student.status === 'invited' && student.expiresAt.getTime() <= Date.now())) {
    throw notFound(INVALID_INVITATION_MESSAGE, 'not_found');
  }
  return student;
}

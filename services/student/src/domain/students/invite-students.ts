import { conflict } from '@readiness/kit/errors';
import { enqueueMany } from '@readiness/kit/outbox';
import {
  audit,
  insertStudents,
  type NewStudent,
  type StudentRecord,
} from '../../data-access/students-repository';
import { activeVersionSummary } from '../../data-access/versions-repository';
import { STUDENT_INVITED, invitedPayload } from '../events';
import {
  ALREADY_INVITED_MESSAGE,
  freshInvitation,
  invitation,
  studentView,
  type StudentInput,
  type StudentsDeps,
  type StudentView,
} from './context';

/** Inserts the students with their invitation events; throws 409 (nothing kept) when an e-mail is taken. */
export async function inviteStudents(
  deps: StudentsDeps,
  inputs: StudentInput[],
  actorId: string,
  action: string,
): Promise<StudentRecord[]> {
  const prepared = inputs.map((input) => ({ input, ...freshInvitation(deps) }));
  const created = await deps.database.transaction(async (tx) => {
    const assessment = await activeVersionSummary(tx);
    const rows: NewStudent[] = prepared.map((p) => ({
      ...p.input,
      tokenHash: p.tokenHash,
      sealedToken: p.sealedToken,
      expiresAt: p.expiresAt,
    }));
    const { inserted, taken } = await insertStudents(tx, rows);
    if (taken) throw conflict(ALREADY_INVITED_MESSAGE, 'already_invited');
    await enqueueMany(
      tx,
      inserted.map((s, i) => ({
        name: STUDENT_INVITED,
        payload: invitedPayload(invitation(deps, s, prepared[i]!.token, actorId, assessment)),
      })),
    );
    const one = inserted.length === 1 ? inserted[0]! : undefined;
    await audit(
      tx,
      one
        ? { actorId, action, studentId: one.id, details: { email: one.email } }
        : { actorId, action, details: { count: inserted.length } },
    );
    return inserted;
  });
  return created;
}

export async function inviteStudent(
  deps: StudentsDeps,
  input: StudentInput,
  actorId: string,
): Promise<StudentView> {
  const [created] = await inviteStudents(deps, [input], actorId, 'student.invited');
  return studentView(deps, created!);
}

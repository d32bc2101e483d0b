import { notFound, unavailable } from '@readiness/kit/errors';
import { enqueue } from '@readiness/kit/outbox';
import { audit, extendInvitation, findStudent, renewInvitation } from '../../data-access/students-repository';
import { activeVersionSummary } from '../../data-access/versions-repository';
import { INVITATION_RESENT, resentPayload } from '../events';
import {
  STUDENT_NOT_FOUND_MESSAGE,
  expiryFromNow,
  freshInvitation,
  invitation,
  openedToken,
  studentView,
  type StudentsDeps,
  type StudentView,
} from './context';

/**
 * Mails the invitation again. The mail carries the link the student already has, so every earlier mail keeps
 * working: a student who started keeps it as it is, an unstarted invitation keeps it valid for INVITE_TTL_DAYS
 * more, and only an expired one (or one whose sealed copy no longer opens, after EVENT_SECRETS_KEY changed) gets
 * a new link.
 */
export async function resendInvitation(
  deps: StudentsDeps,
  id: string,
  actorId: string,
): Promise<StudentView> {
  const renewed = await deps.database.transaction(async (tx) => {
    const current = await findStudent(tx, id, true);
    if (!current) throw notFound(STUDENT_NOT_FOUND_MESSAGE, 'student_not_found');
    const kept = openedToken(deps, current.sealedToken);
    const expired = current.expiresAt.getTime() <= Date.now();
    let student = current;
    let token = kept;
    if (current.status === 'invited' && (expired || kept === undefined)) {
      const fresh = freshInvitation(deps);
      student = await renewInvitation(tx, id, fresh);
      token = fresh.token;
    } else if (current.status === 'invited') {
      student = await extendInvitation(tx, id, expiryFromNow(deps));
    }
    if (token === undefined) throw unavailable('The invitation link cannot be read: check EVENT_SECRETS_KEY');
    const assessment = await activeVersionSummary(tx);
    await enqueue(tx, {
      name: INVITATION_RESENT,
      payload: resentPayload(invitation(deps, student, token, actorId, assessment)),
    });
    await audit(tx, {
      actorId,
      action: 'student.invitation-resent',
      studentId: id,
      details: { email: student.email },
    });
    return student;
  });
  return studentView(deps, renewed);
}

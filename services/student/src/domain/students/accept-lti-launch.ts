import { ltiLaunchTicketSchema, payloadOf, type LtiLaunchTicket } from '@readiness/contracts';
import type { Tx } from '@readiness/kit/db';
import { AppError } from '@readiness/kit/errors';
import { enqueue } from '@readiness/kit/outbox';
import {
  linkIdentity,
  lockIdentity,
  noteLaunchStudent,
  studentOfIdentity,
  takeLaunchTicket,
} from '../../data-access/lti-identities-repository';
import {
  extendInvitation,
  findStudent,
  insertStudents,
  type StudentRecord,
} from '../../data-access/students-repository';
import { inviteUrl } from '../tokens';
import { expiryFromNow, freshInvitation, type StudentsDeps } from './context';

export const LTI_LAUNCH_ACCEPTED = 'student.lti-launch.accepted.v1' as const;

/** Every refusal of a ticket reads the same: what the learner can do about it is the same. */
export const LAUNCH_REFUSED_MESSAGE =
  'This launch is not valid any more: open the activity from your course again';

const refused = (code: string) => new AppError(code, LAUNCH_REFUSED_MESSAGE, 400);

function openTicket(deps: StudentsDeps, sealed: string): LtiLaunchTicket {
  let ticket: LtiLaunchTicket;
  try {
    ticket = ltiLaunchTicketSchema.parse(JSON.parse(deps.launchTickets.open(sealed)));
  } catch {
    throw refused('invalid_launch_ticket');
  }
  if (ticket.expiresAt * 1000 <= Date.now()) throw refused('launch_ticket_expired');
  return ticket;
}

/**
 * A learner's launch from an LMS, verified by the integrations service and handed over in a sealed ticket: the
 * student of that LMS identity, found or created (name and e-mail from the LMS; no e-mail, or one another student
 * has, leaves it empty), their link kept open, and the page to send the browser to. A ticket opens once.
 */
export async function acceptLtiLaunch(
  deps: StudentsDeps,
  sealedTicket: string,
): Promise<{ studentId: string; pageUrl: string }> {
  const ticket = openTicket(deps, sealedTicket);
  return deps.database.transaction(async (tx) => {
    if (!(await takeLaunchTicket(tx, ticket.launchId))) throw refused('launch_ticket_used');
    await lockIdentity(tx, ticket.issuer, ticket.subject);
    const knownId = await studentOfIdentity(tx, ticket.issuer, ticket.subject);
    const known = knownId ? await findStudent(tx, knownId, true) : undefined;
    const student = known ? await keepOpen(deps, tx, known) : await createStudent(deps, tx, ticket);
    await noteLaunchStudent(tx, ticket.launchId, student.id);
    await enqueue(tx, {
      name: LTI_LAUNCH_ACCEPTED,
      payload: payloadOf(LTI_LAUNCH_ACCEPTED, {
        studentId: student.id,
        launchId: ticket.launchId,
        issuer: ticket.issuer,
        subject: ticket.subject,
        created: !known,
      }),
    });
    return {
      studentId: student.id,
      pageUrl: inviteUrl(deps.publicOrigin, deps.secrets.open(student.sealedToken)),
    };
  });
}

/** A launch renews a link that has not been started yet, as a resend would: the LMS is how they come back. */
const keepOpen = (deps: StudentsDeps, tx: Tx, s: StudentRecord) =>
  s.status === 'invited' ? extendInvitation(tx, s.id, expiryFromNow(deps)) : Promise.resolve(s);

async function createStudent(deps: StudentsDeps, tx: Tx, ticket: LtiLaunchTicket): Promise<StudentRecord> {
  const fresh = freshInvitation(deps);
  const row = (email: string) => ({
    name: ticket.name.trim() || 'Learner',
    email,
    phoneNumber: null,
    extraTimePercent: 0,
    language: null,
    tokenHash: fresh.tokenHash,
    sealedToken: fresh.sealedToken,
    expiresAt: fresh.expiresAt,
  });
  const email = ticket.email?.trim().toLowerCase() ?? '';
  let { inserted } = await insertStudents(tx, [row(email)]);
  if (inserted.length === 0) ({ inserted } = await insertStudents(tx, [row('')]));
  const student = inserted[0]!;
  await linkIdentity(tx, ticket.issuer, ticket.subject, student.id);
  return student;
}

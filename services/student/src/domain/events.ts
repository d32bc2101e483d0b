import {
  StudentDeletedSchema,
  StudentInvitationResentSchema,
  StudentInvitedSchema,
  create,
  encodePayload,
} from '@readiness/contracts';

export const STUDENT_INVITED = 'student.student.invited.v1' as const;
export const INVITATION_RESENT = 'student.invitation.resent.v1' as const;
export const STUDENT_DELETED = 'student.student.deleted.v1' as const;

export interface InvitationFacts {
  studentId: string;
  name: string;
  email: string;
  /** The invitation link, already sealed with the event secret box. */
  sealedInvitationUrl: string;
  assessment?: { title: string; timeLimitMinutes: number };
  actorId: string;
  expiresAt: Date;
}

const invitationFields = (f: InvitationFacts) => ({
  studentId: f.studentId,
  name: f.name,
  email: f.email,
  sealedInvitationUrl: f.sealedInvitationUrl,
  assessmentTitle: f.assessment?.title ?? '',
  timeLimitMinutes: f.assessment?.timeLimitMinutes ?? 0,
  actorId: f.actorId,
  expiresAt: f.expiresAt.toISOString(),
});

export const invitedPayload = (f: InvitationFacts) =>
  encodePayload(STUDENT_INVITED, create(StudentInvitedSchema, invitationFields(f)));

export const resentPayload = (f: InvitationFacts) =>
  encodePayload(INVITATION_RESENT, create(StudentInvitationResentSchema, invitationFields(f)));

export const deletedPayload = (f: { studentId: string; email: string; actorId: string }) =>
  encodePayload(STUDENT_DELETED, create(StudentDeletedSchema, f));

import {
  AttemptAdjustment,
  AttemptFinalisedBy,
  ReminderTrigger,
  timelineMessages,
  timestampFromDate,
  type Language,
  type TimelineFact,
  payloadOf,
} from '@readiness/contracts';
import type { AttemptFile, AttemptRecord, FinalisedBy } from '../data-access/attempt-records';
import type { ReminderTrigger as Trigger } from './reminders/schedule';
import type { Answer } from './versions';

export const STUDENT_INVITED = 'student.student.invited.v1' as const;
export const INVITATION_RESENT = 'student.invitation.resent.v1' as const;
export const REMINDER_REQUESTED = 'student.reminder.requested.v1' as const;
export const STUDENT_DELETED = 'student.student.deleted.v1' as const;
export const EXTRA_TIME_CHANGED = 'student.extra-time.changed.v1' as const;
export const ATTEMPT_STARTED = 'student.attempt.started.v1' as const;
export const ATTEMPT_SUBMITTED = 'student.attempt.submitted.v1' as const;
export const ATTEMPT_ADJUSTED = 'student.attempt.adjusted.v1' as const;

const FINALISED_BY: Record<FinalisedBy, AttemptFinalisedBy> = {
  student: AttemptFinalisedBy.STUDENT,
  deadline: AttemptFinalisedBy.DEADLINE,
  admin: AttemptFinalisedBy.ADMIN,
};

export interface InvitationFacts {
  studentId: string;
  name: string;
  email: string;
  /** The invitation link, already sealed with the event secret box. */
  sealedInvitationUrl: string;
  /** `title` in English; `localizedTitle` in the student's language when the version translates it, else English. */
  assessment?: { title: string; localizedTitle: string; timeLimitMinutes: number };
  /** The student's accommodation, part of the time the mail states. */
  extraTimePercent: number;
  /** The mail's language; null: English. */
  language: Language | null;
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
  extraTimePercent: f.extraTimePercent,
  language: f.language ?? '',
  localizedTitle: f.assessment?.localizedTitle ?? '',
  actorId: f.actorId,
  expiresAt: f.expiresAt.toISOString(),
});

export const invitedPayload = (f: InvitationFacts) => payloadOf(STUDENT_INVITED, invitationFields(f));

export const resentPayload = (f: InvitationFacts) => payloadOf(INVITATION_RESENT, invitationFields(f));

const TRIGGERS: Record<Trigger, ReminderTrigger> = {
  'after-invitation': ReminderTrigger.AFTER_INVITATION,
  'before-expiry': ReminderTrigger.BEFORE_EXPIRY,
  admin: ReminderTrigger.ADMIN,
};

/** A reminder: the invitation's fields (the same link), why it goes out and which one it is. */
export const reminderPayload = (f: InvitationFacts, trigger: Trigger, reminderNumber: number) =>
  payloadOf(REMINDER_REQUESTED, { ...invitationFields(f), trigger: TRIGGERS[trigger], reminderNumber });

export const deletedPayload = (f: { studentId: string; email: string; actorId: string; reason: string }) =>
  payloadOf(STUDENT_DELETED, f);

/** A student's extra time as an admin set it, for the audit log. */
export const extraTimePayload = (
  s: { id: string; name: string; email: string; extraTimePercent: number },
  actorId: string,
) =>
  payloadOf(EXTRA_TIME_CHANGED, {
    studentId: s.id,
    name: s.name,
    email: s.email,
    actorId,
    extraTimePercent: s.extraTimePercent,
  });

export const startedPayload = (a: AttemptRecord, version: number) =>
  payloadOf(ATTEMPT_STARTED, {
    attemptId: a.id,
    studentId: a.studentId,
    versionId: a.versionId,
    version,
    attemptNumber: a.attemptNumber,
    startedAt: timestampFromDate(a.startedAt),
    deadlineAt: timestampFromDate(a.deadlineAt),
  });

/** The ended attempt as the results service scores it: the answers that count, each file answer with its file. */
export const submittedPayload = (f: {
  attempt: AttemptRecord;
  student: { name: string; email: string };
  version: number;
  answers: Answer[];
  files: AttemptFile[];
  timeSpentMinutes: number;
  finalisedBy: FinalisedBy;
  gradedFromAutosave: boolean;
  timeline: TimelineFact[];
  /** The student's newest LMS launch ('' when none): the score goes back through it. */
  ltiLaunchId: string;
}) => {
  const files = new Map(f.files.map((file) => [file.questionId, file]));
  return payloadOf(ATTEMPT_SUBMITTED, {
    attemptId: f.attempt.id,
    studentId: f.attempt.studentId,
    name: f.student.name,
    email: f.student.email,
    versionId: f.attempt.versionId,
    version: f.version,
    attemptNumber: f.attempt.attemptNumber,
    startedAt: timestampFromDate(f.attempt.startedAt),
    deadlineAt: timestampFromDate(f.attempt.deadlineAt),
    submittedAt: timestampFromDate(f.attempt.submittedAt ?? new Date()),
    timeSpentMinutes: f.timeSpentMinutes,
    answers: f.answers.map((a) => {
      const file = files.get(a.questionId);
      return {
        questionId: a.questionId,
        answer: a.answer,
        file: file && {
          key: file.objectKey,
          originalName: file.originalName,
          size: BigInt(file.size),
          mimetype: file.mimetype,
        },
      };
    }),
    finalisedBy: FINALISED_BY[f.finalisedBy],
    gradedFromAutosave: f.gradedFromAutosave,
    timeline: timelineMessages(f.timeline),
    questionIds: f.attempt.paper?.questionIds ?? [],
    language: f.attempt.language ?? '',
    ltiLaunchId: f.ltiLaunchId,
  });
};

/** An administrator added time to an attempt in progress (`addedMinutes`) or ended it, for the audit log. */
export const adjustedPayload = (f: {
  attemptId: string;
  studentId: string;
  name: string;
  email: string;
  attemptNumber: number;
  adjustment: 'extended' | 'ended';
  addedMinutes: number;
  deadlineAt: Date;
  actorId: string;
}) =>
  payloadOf(ATTEMPT_ADJUSTED, {
    ...f,
    adjustment: f.adjustment === 'extended' ? AttemptAdjustment.EXTENDED : AttemptAdjustment.ENDED,
    deadlineAt: timestampFromDate(f.deadlineAt),
  });

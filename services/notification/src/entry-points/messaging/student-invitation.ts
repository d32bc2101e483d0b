import type { SecretBox } from '@readiness/kit/outbox';
import { on, type EventSubscription } from '@readiness/kit/runtime';
import { deliver, type MailConsumerDeps } from '../../domain/deliver';
import { studentInvitation } from '../../domain/templates';

interface InvitationEvent {
  studentId: string;
  name: string;
  email: string;
  sealedInvitationUrl: string;
  assessmentTitle: string;
  timeLimitMinutes: number;
  extraTimePercent: number;
  expiresAt: string;
  /** The student's language (empty from a student service older than languages: English). */
  language: string;
  /** The assessment's title in `language` (empty from a student service older than the field: `assessmentTitle`). */
  localizedTitle: string;
}

/**
 * Mails invitations (first, resent, and reminders) with the link opened from its sealed form, recording each
 * delivery against the student (the Student Management table shows the latest); erases a deleted student's mail log.
 * A reminder is the resent invitation's mail ('Reminder: your … assessment invitation') under a template of its own,
 * so each reminder event is mailed once, whatever else the student was sent. Invitations and reminders (which come by
 * the thousand, from an import or the daily job) yield to students waiting at the peak; a resent invitation, one
 * student an administrator is helping, does not.
 */
export function studentInvitationConsumers(
  deps: MailConsumerDeps & {
    secrets: SecretBox;
    contact: string | undefined;
  },
): EventSubscription[] {
  const mailInvitation =
    (template: string, resent: boolean) =>
    async (event: InvitationEvent, meta: { id: string; attempt: number }) => {
      await deliver(deps, {
        eventId: meta.id,
        template,
        to: event.email,
        studentId: event.studentId,
        mail: studentInvitation({
          name: event.name,
          invitationUrl: deps.secrets.open(event.sealedInvitationUrl),
          // The title in the student's language when the version translates it, else English.
          assessmentTitle: event.localizedTitle || event.assessmentTitle,
          timeLimitMinutes: event.timeLimitMinutes,
          extraTimePercent: event.extraTimePercent,
          expiresAt: event.expiresAt ? new Date(event.expiresAt) : undefined,
          contact: deps.contact,
          resent,
          language: event.language,
        }),
        attempt: meta.attempt,
        maxAttempts: deps.maxAttempts,
        leaseSeconds: deps.leaseSeconds,
      });
    };
  return [
    on('notification.student-invited', {
      maxAttempts: deps.maxAttempts,
      yieldsToStudents: true,
      handle: mailInvitation('student-invitation', false),
    }),
    on('notification.invitation-resent', {
      maxAttempts: deps.maxAttempts,
      handle: mailInvitation('student-invitation-resent', true),
    }),
    on('notification.reminder-requested', {
      maxAttempts: deps.maxAttempts,
      yieldsToStudents: true,
      handle: mailInvitation('student-invitation-reminder', true),
    }),
    on('notification.student-deleted', {
      handle: (event) => deps.repo.eraseStudent(event.studentId),
    }),
  ];
}

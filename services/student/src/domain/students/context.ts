import type { Language } from '@readiness/contracts';
import type { Database } from '@readiness/kit/db';
import type { Logger } from '@readiness/kit/logger';
import type { SecretBox } from '@readiness/kit/outbox';
import type { StudentRecord } from '../../data-access/students-repository';
import type { InvitationVersion } from '../../data-access/versions-repository';
import type { InvitationFacts } from '../events';
import type { ReminderSchedule } from '../reminders/schedule';
import { inviteUrl, newInviteToken, tokenHash } from '../tokens';

export const ALREADY_INVITED_MESSAGE = 'A student with this email is already invited';
export const STUDENT_NOT_FOUND_MESSAGE = 'Student not found';
export const INVALID_INVITATION_MESSAGE = 'Invalid or expired invitation link';

export interface StudentInput {
  name: string;
  email: string;
  phoneNumber: string | null;
  extraTimePercent: number;
  /** The language an administrator chose for the student; null: the browser's (English in mails). */
  language: Language | null;
}

/** A student as the admin list shows it: the token opened from its sealed copy. */
export interface StudentView extends Omit<StudentRecord, 'sealedToken'> {
  inviteToken: string;
  inviteUrl: string;
  expired: boolean;
}

export interface StudentsDeps {
  database: Database;
  logger: Logger;
  secrets: SecretBox;
  /** Opens the LMS launch tickets the integrations service seals (the same key, another purpose). */
  launchTickets: SecretBox;
  publicOrigin: string;
  inviteTtlDays: number;
  /** When the reminder job reminds an invited student who has not started, until an administrator sets it. */
  reminders: ReminderSchedule;
  /** Removes every answer file a student uploaded (their prefix in the bucket). */
  removeStudentFiles(studentId: string): Promise<void>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function studentView(deps: StudentsDeps, s: StudentRecord): StudentView {
  const { sealedToken, ...rest } = s;
  const token = deps.secrets.open(sealedToken);
  return {
    ...rest,
    inviteToken: token,
    inviteUrl: inviteUrl(deps.publicOrigin, token),
    expired: s.status === 'invited' && s.expiresAt.getTime() <= Date.now(),
  };
}

/** The student's link opened from its sealed copy, or undefined when it no longer opens (EVENT_SECRETS_KEY changed). */
export function openedToken(deps: Pick<StudentsDeps, 'secrets'>, sealed: string): string | undefined {
  try {
    return deps.secrets.open(sealed);
  } catch {
    return undefined;
  }
}

export const expiryFromNow = (deps: Pick<StudentsDeps, 'inviteTtlDays'>) =>
  new Date(Date.now() + deps.inviteTtlDays * DAY_MS);

/** A new invitation link: the token (mailed, never stored), its hash (looked up) and its sealed copy (listed). */
export function freshInvitation(deps: StudentsDeps) {
  const token = newInviteToken();
  return {
    token,
    tokenHash: tokenHash(token),
    sealedToken: deps.secrets.seal(token),
    expiresAt: expiryFromNow(deps),
  };
}

/**
 * The version's title in `language` when it translates it (not blank), else its English title; a student without a
 * language (null) reads English.
 */
export function titleIn(
  version: Pick<InvitationVersion, 'title' | 'titles'>,
  language: Language | null,
): string {
  const translated = language === null || language === 'en' ? undefined : version.titles[language];
  return translated?.trim() ? translated : version.title;
}

/**
 * What an invitation event carries; the link is sealed for the notification service that mails it. The assessment
 * is named in English (the results service and the audit log keep it) and in the student's language (the mail's).
 */
export const invitation = (
  deps: StudentsDeps,
  s: StudentRecord,
  token: string,
  actorId: string,
  assessment: InvitationVersion | undefined,
): InvitationFacts => ({
  studentId: s.id,
  name: s.name,
  email: s.email,
  sealedInvitationUrl: deps.secrets.seal(inviteUrl(deps.publicOrigin, token)),
  assessment: assessment && {
    title: assessment.title,
    localizedTitle: titleIn(assessment, s.language),
    timeLimitMinutes: assessment.timeLimitMinutes,
  },
  extraTimePercent: s.extraTimePercent,
  language: s.language,
  actorId,
  expiresAt: s.expiresAt,
});

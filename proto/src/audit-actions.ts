/*
 * Every action the audit log can hold, declared once: auth writes its own admins' actions and
 * the ones the other services announce as events; the audit API declares its `action` as one of these, the CSV
 * export names each in words with the labels below, and the admin app's catalogue has a label for each (its test
 * compares them). A new audited action is added here first; nothing else compiles until it has its words.
 */
export const AUDIT_ACTION_LABELS = {
  'admin.signed-in': 'Signed in',
  'admin.sign-in-refused': 'Sign-in refused',
  'admin.reauthenticated': 'Identity confirmed again',
  'admin.created': 'Admin created',
  'admin.updated': 'Admin edited',
  'admin.status-changed': 'Admin enabled or disabled',
  'admin.password-reset': 'Password reset',
  'admin.password-changed': 'Password changed',
  'admin.session-ended': 'Session signed out',
  'admin.signed-out-everywhere': 'Signed out everywhere',
  'admin.seeded': 'First super admin created',
  'admin.mfa-enrolled': 'Second factor added',
  'admin.mfa-disabled': 'Second factor removed',
  'admin.mfa-reset': 'Second factor reset',
  'admin.mfa-recovery-code-used': 'Recovery code used',
  'admin.recovery-codes-replaced': 'Recovery codes replaced',
  'admin.mfa-code-refused': 'Wrong second-factor code',
  'admin.mfa-locked-out': 'Locked out after wrong codes',
  'settings.mfa-required-changed': 'Two-step sign-in requirement changed',
  'student.invited': 'Student invited',
  'student.invitation-resent': 'Invitation resent',
  'student.reminded': 'Reminder sent',
  'student.deleted': 'Student deleted',
  'student.extra-time-changed': 'Extra time changed',
  'student.data-exported': 'Student data exported',
  'result.deleted': 'Result deleted',
  'certificate.resend-requested': 'Certificate resent',
  'results.exported': 'Results exported',
  'report.downloaded': 'PDF report downloaded',
  'certificate.downloaded': 'Certificate downloaded',
  'assessment.version-saved': 'Assessment version saved',
  'assessment.version-activated': 'Assessment version made current',
  'assessment.question-file-uploaded': 'Question file uploaded',
  'assessment.question-file-removed': 'Question file removed',
  'attempt.extended': 'Time added to an attempt',
  'attempt.ended': 'Attempt ended',
  'lti.platform-registered': 'LMS connection added',
  'lti.platform-updated': 'LMS connection edited',
  'lti.platform-disabled': 'LMS connection disabled',
  'lti.platform-enabled': 'LMS connection enabled',
  'lti.platform-deleted': 'LMS connection deleted',
  'webhook.endpoint-added': 'Webhook endpoint added',
  'webhook.endpoint-updated': 'Webhook endpoint edited',
  'webhook.endpoint-disabled': 'Webhook endpoint disabled',
  'webhook.endpoint-enabled': 'Webhook endpoint enabled',
  'webhook.endpoint-secret-rotated': 'Webhook secret rotated',
  'webhook.endpoint-deleted': 'Webhook endpoint deleted',
  'webhook.endpoint-disabled-failing': 'Webhook endpoint disabled after failing',
} as const;

/** The key of an audited action, as the audit log stores it and its API filters by it. */
export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

/** Every audited action's key, in the order above. */
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as [AuditAction, ...AuditAction[]];

/** An action in words, for the CSV export; a key this list does not know (none should exist) as it is. */
export const auditActionLabel = (action: string): string =>
  (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;

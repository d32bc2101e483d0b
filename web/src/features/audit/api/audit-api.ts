import { api } from '../../../lib/api';
import { request } from '../../../lib/api-request';
import type { ApiAnswer, ApiQuery } from '../../../lib/api-types';
import { adminT } from '../../../i18n/admin/admin-i18n';
// The keys only (a type): the web takes nothing else from the contracts.
import type { AuditAction } from '../../../../../proto/src/audit-actions';

type AuditLog = ApiAnswer<'/api/admin/audit-log', 'get'>;
export type AuditEntry = AuditLog['entries'][number];
export type AuditQuery = ApiQuery<'/api/admin/audit-log', 'get'>;

export const AUDIT_PAGE_SIZE = 50;
/** The audit log's CSV, filtered as the list is. */
export const auditExport = (query: AuditQuery) =>
  request('/api/admin/audit-log/export.csv', 'get', { query });

export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAuditLog: build.query<AuditEntry[], AuditQuery>({
      query: (query) => request('/api/admin/audit-log', 'get', { query }),
      transformResponse: (body: AuditLog) => body.entries,
    }),
  }),
});

export const { useGetAuditLogQuery } = auditApi;

/**
 * The catalogue's message for each action the services can write (declared once, in the contracts): an action
 * without its words does not compile. One the list does not know (none should reach the screen) shows its key.
 */
const ACTION_MESSAGES: Record<AuditAction, () => string> = {
  'admin.signed-in': () => adminT('audit.action.signedIn'),
  'admin.sign-in-refused': () => adminT('audit.action.signInRefused'),
  'admin.created': () => adminT('audit.action.adminCreated'),
  'admin.updated': () => adminT('audit.action.adminUpdated'),
  'admin.status-changed': () => adminT('audit.action.adminStatusChanged'),
  'admin.password-reset': () => adminT('audit.action.passwordReset'),
  'admin.password-changed': () => adminT('audit.action.passwordChanged'),
  'admin.session-ended': () => adminT('audit.action.sessionEnded'),
  'admin.signed-out-everywhere': () => adminT('audit.action.signedOutEverywhere'),
  'admin.seeded': () => adminT('audit.action.adminSeeded'),
  'student.invited': () => adminT('audit.action.studentInvited'),
  'student.invitation-resent': () => adminT('audit.action.invitationResent'),
  'student.reminded': () => adminT('audit.action.studentReminded'),
  'student.deleted': () => adminT('audit.action.studentDeleted'),
  'student.extra-time-changed': () => adminT('audit.action.extraTimeChanged'),
  'student.data-exported': () => adminT('audit.action.studentDataExported'),
  'result.deleted': () => adminT('audit.action.resultDeleted'),
  'certificate.resend-requested': () => adminT('audit.action.certificateResent'),
  'results.exported': () => adminT('audit.action.resultsExported'),
  'report.downloaded': () => adminT('audit.action.reportDownloaded'),
  'certificate.downloaded': () => adminT('audit.action.certificateDownloaded'),
  'assessment.version-saved': () => adminT('audit.action.versionSaved'),
  'assessment.version-activated': () => adminT('audit.action.versionActivated'),
  'assessment.question-file-uploaded': () => adminT('audit.action.questionFileUploaded'),
  'assessment.question-file-removed': () => adminT('audit.action.questionFileRemoved'),
  'attempt.extended': () => adminT('audit.action.attemptExtended'),
  'attempt.ended': () => adminT('audit.action.attemptEnded'),
  'lti.platform-registered': () => adminT('audit.action.ltiPlatformRegistered'),
  'lti.platform-updated': () => adminT('audit.action.ltiPlatformUpdated'),
  'lti.platform-disabled': () => adminT('audit.action.ltiPlatformDisabled'),
  'lti.platform-enabled': () => adminT('audit.action.ltiPlatformEnabled'),
  'lti.platform-deleted': () => adminT('audit.action.ltiPlatformDeleted'),
  'webhook.endpoint-added': () => adminT('audit.action.webhookAdded'),
  'webhook.endpoint-updated': () => adminT('audit.action.webhookUpdated'),
  'webhook.endpoint-disabled': () => adminT('audit.action.webhookDisabled'),
  'webhook.endpoint-enabled': () => adminT('audit.action.webhookEnabled'),
  'webhook.endpoint-secret-rotated': () => adminT('audit.action.webhookSecretRotated'),
  'webhook.endpoint-deleted': () => adminT('audit.action.webhookDeleted'),
  'webhook.endpoint-disabled-failing': () => adminT('audit.action.webhookDisabledFailing'),
  'admin.reauthenticated': () => adminT('audit.action.reauthenticated'),
  'admin.mfa-enrolled': () => adminT('audit.action.mfaEnrolled'),
  'admin.mfa-disabled': () => adminT('audit.action.mfaDisabled'),
  'admin.mfa-reset': () => adminT('audit.action.mfaReset'),
  'admin.mfa-recovery-code-used': () => adminT('audit.action.recoveryCodeUsed'),
  'admin.recovery-codes-replaced': () => adminT('audit.action.recoveryCodesReplaced'),
  'admin.mfa-code-refused': () => adminT('audit.action.mfaCodeRefused'),
  'admin.mfa-locked-out': () => adminT('audit.action.mfaLockedOut'),
  'settings.mfa-required-changed': () => adminT('audit.action.mfaRequiredChanged'),
};

/** The actions the filter offers, each with what it is called on the screen. */
export const KNOWN_ACTIONS = Object.keys(ACTION_MESSAGES) as AuditAction[];

/** What an action is called on the screen. */
export const actionLabel = (action: string) =>
  (ACTION_MESSAGES as Record<string, (() => string) | undefined>)[action]?.() ?? action;

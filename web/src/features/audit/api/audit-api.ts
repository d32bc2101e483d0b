import { api } from '../../../lib/api';
import type { ApiAnswer, ApiQuery } from '../../../lib/api-types';

type AuditLog = ApiAnswer<'/api/admin/audit-log', 'get'>;
export type AuditEntry = AuditLog['entries'][number];
export type AuditQuery = ApiQuery<'/api/admin/audit-log', 'get'>;

export const AUDIT_PAGE_SIZE = 50;
export const auditExportPath = 'admin/audit-log/export.csv';

export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAuditLog: build.query<AuditEntry[], AuditQuery>({
      query: (params) => ({ url: 'admin/audit-log', params }),
      transformResponse: (body: AuditLog) => body.entries,
    }),
  }),
});

export const { useGetAuditLogQuery } = auditApi;

/** What each action is called on the screen; an action this list does not know shows its own name. */
export const ACTION_LABELS: Record<string, string> = {
  'admin.signed-in': 'Signed in',
  'admin.sign-in-refused': 'Sign-in refused',
  'admin.created': 'Admin created',
  'admin.updated': 'Admin edited',
  'admin.status-changed': 'Admin enabled or disabled',
  'admin.password-reset': 'Password reset',
  'admin.password-changed': 'Password changed',
  'admin.session-ended': 'Session signed out',
  'admin.signed-out-everywhere': 'Signed out everywhere',
  'admin.seeded': 'First super admin created',
  'student.invited': 'Student invited',
  'student.invitation-resent': 'Invitation resent',
  'student.deleted': 'Student deleted',
  'result.deleted': 'Result deleted',
  'certificate.resend-requested': 'Certificate resent',
  'assessment.version-saved': 'Assessment version saved',
  'assessment.version-activated': 'Assessment version made current',
  'attempt.extended': 'Time added to an attempt',
  'attempt.ended': 'Attempt ended',
};

export const actionLabel = (action: string) => ACTION_LABELS[action] ?? action;

import { Badge, Person, type Column } from '../../../components/ui';
import { formatDate, formatTimeWithSeconds } from '../../../lib/format';
import { adminT } from '../../../i18n/admin/admin-i18n';
import { actionLabel, type AuditEntry } from '../api/audit-api';

const METHODS: Record<string, () => string> = {
  password: () => adminT('audit.method.password'),
  sso: () => adminT('audit.method.sso'),
  passkey: () => adminT('audit.method.passkey'),
  'password+totp': () => adminT('audit.method.passwordTotp'),
  'password+recovery-code': () => adminT('audit.method.passwordRecoveryCode'),
  'password+passkey': () => adminT('audit.method.passwordPasskey'),
  // The factor a second-factor change concerns.
  totp: () => adminT('audit.method.totp'),
  'recovery-code': () => adminT('audit.method.recoveryCode'),
};

const REASONS: Record<string, () => string> = {
  wrong_password: () => adminT('audit.reason.wrongPassword'),
  disabled: () => adminT('audit.reason.disabled'),
  no_account: () => adminT('audit.reason.noAccount'),
  unverified: () => adminT('audit.reason.unverified'),
  retention: () => adminT('audit.reason.retention'),
};

/** A known code in words, an unknown one as it is. */
const named = (messages: Record<string, () => string>, code: string) => messages[code]?.() ?? code;

/** The entry's details in words: how someone signed in, why it was refused, which version. */
export function describeDetails(details: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof details.method === 'string') parts.push(named(METHODS, details.method));
  if (typeof details.reason === 'string') parts.push(named(REASONS, details.reason));
  // The passkey's own name, as its admin called it.
  const passkey = typeof details.passkey === 'string' ? details.passkey : details.name;
  if (details.method !== undefined && typeof passkey === 'string') {
    parts.push(adminT('audit.details.passkey', { name: passkey }));
  }
  if (typeof details.version === 'number') {
    const { version, title } = details;
    parts.push(
      typeof title === 'string'
        ? adminT('audit.details.versionTitled', { version, title })
        : adminT('audit.details.version', { version }),
    );
  }
  if (typeof details.minutes === 'number') {
    parts.push(adminT('audit.details.minutesAdded', { minutes: details.minutes }));
  }
  if (typeof details.attemptNumber === 'number') {
    parts.push(adminT('audit.details.attempt', { attemptNumber: details.attemptNumber }));
  }
  if (typeof details.extraTimePercent === 'number') {
    parts.push(adminT('audit.details.extraTime', { percent: details.extraTimePercent }));
  }
  // A question file, by the name it was uploaded under.
  if (typeof details.originalName === 'string') parts.push(details.originalName);
  // A webhook endpoint's description, as its admins wrote it.
  if (typeof details.description === 'string' && details.description) parts.push(details.description);
  if (typeof details.email === 'string') parts.push(details.email);
  return parts.join(' · ');
}

const tone = (action: string) =>
  action.endsWith('refused') ? 'danger' : action.endsWith('deleted') ? 'warning' : 'neutral';

export const auditColumns: Column<AuditEntry>[] = [
  {
    key: 'when',
    header: adminT('audit.table.when'),
    // The day on one line and the time (with seconds: entries often come close together) under it.
    render: (e) => (
      <time dateTime={e.createdAt}>
        <span className="nowrap">{formatDate(e.createdAt)}</span>
        <br />
        <span className="muted">{formatTimeWithSeconds(new Date(e.createdAt))}</span>
      </time>
    ),
  },
  {
    key: 'actor',
    header: adminT('audit.table.admin'),
    render: (e) =>
      e.actor ? (
        <Person name={e.actor.name || adminT('audit.table.unknownAdmin')} email={e.actor.email} />
      ) : (
        '—'
      ),
  },
  {
    key: 'action',
    header: adminT('audit.table.action'),
    render: (e) => <Badge tone={tone(e.action)}>{actionLabel(e.action)}</Badge>,
  },
  {
    key: 'target',
    header: adminT('audit.table.concerning'),
    render: (e) =>
      !e.target ? (
        '—'
      ) : e.action.startsWith('webhook.') ? (
        // A webhook endpoint, named by its URL: not a person.
        <span className="audit__endpoint">{e.target.name}</span>
      ) : (
        <Person name={e.target.name || e.target.email || e.target._id} email={e.target.email} />
      ),
  },
  {
    key: 'details',
    header: adminT('audit.table.details'),
    priority: 'low',
    render: (e) => describeDetails(e.details) || '—',
  },
];

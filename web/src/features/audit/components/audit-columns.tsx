import { Badge, Person, type Column } from '../../../components/ui';
import { formatDate } from '../../../lib/format';

const timeOfDay = new Intl.DateTimeFormat('en-US', { timeStyle: 'medium' });
import { actionLabel, type AuditEntry } from '../api/audit-api';

const METHODS: Record<string, string> = {
  password: 'with a password',
  sso: 'through single sign-on',
  passkey: 'with a passkey',
  'password+totp': 'with a password and an authenticator code',
  'password+recovery-code': 'with a password and a recovery code',
  'password+passkey': 'with a password and a passkey',
  // The factor a second-factor change concerns.
  totp: 'authenticator app',
};

const REASONS: Record<string, string> = {
  wrong_password: 'wrong password',
  disabled: 'account disabled',
  no_account: 'no admin account',
  unverified: 'e-mail not verified',
};

/** The entry's details in words: how someone signed in, why it was refused, which version. */
export function describeDetails(details: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof details.method === 'string') parts.push(METHODS[details.method] ?? details.method);
  if (typeof details.reason === 'string') parts.push(REASONS[details.reason] ?? details.reason);
  // The passkey's own name, as its admin called it.
  const passkey = typeof details.passkey === 'string' ? details.passkey : details.name;
  if (details.method !== undefined && typeof passkey === 'string') parts.push(`'${passkey}'`);
  if (typeof details.version === 'number') {
    parts.push(`version ${details.version}${typeof details.title === 'string' ? `: ${details.title}` : ''}`);
  }
  if (typeof details.minutes === 'number') {
    parts.push(`${details.minutes} ${details.minutes === 1 ? 'minute' : 'minutes'} added`);
  }
  if (typeof details.attemptNumber === 'number') parts.push(`attempt ${details.attemptNumber}`);
  if (typeof details.email === 'string') parts.push(details.email);
  return parts.join(' · ');
}

const tone = (action: string) =>
  action.endsWith('refused') ? 'danger' : action.endsWith('deleted') ? 'warning' : 'neutral';

export const auditColumns: Column<AuditEntry>[] = [
  {
    key: 'when',
    header: 'When',
    // The day on one line and the time (with seconds: entries often come close together) under it.
    render: (e) => (
      <time dateTime={e.createdAt}>
        <span className="nowrap">{formatDate(e.createdAt)}</span>
        <br />
        <span className="muted">{timeOfDay.format(new Date(e.createdAt))}</span>
      </time>
    ),
  },
  {
    key: 'actor',
    header: 'Admin',
    render: (e) => (e.actor ? <Person name={e.actor.name || 'Unknown admin'} email={e.actor.email} /> : '—'),
  },
  {
    key: 'action',
    header: 'Action',
    render: (e) => <Badge tone={tone(e.action)}>{actionLabel(e.action)}</Badge>,
  },
  {
    key: 'target',
    header: 'Concerning',
    render: (e) =>
      e.target ? (
        <Person name={e.target.name || e.target.email || e.target._id} email={e.target.email} />
      ) : (
        '—'
      ),
  },
  { key: 'details', header: 'Details', priority: 'low', render: (e) => describeDetails(e.details) || '—' },
];

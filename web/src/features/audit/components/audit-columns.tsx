import { Badge, Person, type Column } from '../../../components/ui';
import { formatDateTime } from '../../../lib/format';
import { actionLabel, type AuditEntry } from '../api/audit-api';

const METHODS: Record<string, string> = { password: 'with a password', sso: 'through single sign-on' };

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
  if (typeof details.version === 'number') {
    parts.push(`version ${details.version}${typeof details.title === 'string' ? `: ${details.title}` : ''}`);
  }
  if (typeof details.email === 'string') parts.push(details.email);
  return parts.join(' · ');
}

const tone = (action: string) =>
  action.endsWith('refused') ? 'danger' : action.endsWith('deleted') ? 'warning' : 'neutral';

export const auditColumns: Column<AuditEntry>[] = [
  {
    key: 'when',
    header: 'When',
    render: (e) => <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>,
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
    priority: 'low',
    render: (e) =>
      e.target ? (
        <Person name={e.target.name || e.target.email || e.target._id} email={e.target.email} />
      ) : (
        '—'
      ),
  },
  { key: 'details', header: 'Details', priority: 'low', render: (e) => describeDetails(e.details) || '—' },
];

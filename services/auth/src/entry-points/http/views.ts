import { auditActionLabel } from '@readiness/contracts';
import { csvLine } from '@readiness/kit/csv';
import type { AdminRecord, AuditEntry, AuditQuery } from '../../data-access/admins-repository';
import type { Request } from 'express';
import type { OwnSession, SessionClient } from '../../domain/admin-accounts';

export function toAdminJson(a: AdminRecord) {
  return {
    _id: a.id,
    name: a.name,
    email: a.email,
    role: a.role,
    status: a.status,
    lastLogin: a.lastLogin ? a.lastLogin.toISOString() : null,
    createdAt: a.createdAt.toISOString(),
    mustChangePassword: a.mustChangePassword,
    mfaEnabled: a.mfaEnabled,
  };
}

export function toAuditJson(e: AuditEntry) {
  const person = (p: AuditEntry['actor']) => (p ? { _id: p.id, name: p.name, email: p.email } : null);
  return {
    _id: e.id,
    actor: person(e.actor),
    action: e.action,
    target: person(e.target),
    details: e.details,
    createdAt: e.createdAt.toISOString(),
  };
}

/** The audit API's filters as the repository takes them. */
export function auditFilter(query: {
  before?: string;
  from?: string;
  to?: string;
  actor?: string;
  action?: string;
  q?: string;
}): Omit<AuditQuery, 'limit'> {
  const date = (value?: string) => (value ? new Date(value) : undefined);
  return {
    before: date(query.before),
    from: date(query.from),
    to: date(query.to),
    actorId: query.actor,
    action: query.action,
    search: query.q || undefined,
  };
}

/** The CSV export's columns: the action in words beside its key, the details as words. */
export const AUDIT_CSV_HEADER = csvLine([
  'When',
  'Actor',
  'Actor Email',
  'Action',
  'Action Key',
  'Target',
  'Target Email',
  'Details',
]);

/** A detail's name in words: `attemptNumber` reads "Attempt number". */
const detailName = (key: string) => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const detailValue = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.map(detailValue).join(', ');
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${detailName(k)} ${detailValue(v)}`)
      .join(', ');
  }
  return String(value);
};

/** An entry's details as a reader sees them, one "Name: value" per detail, never raw JSON. */
const auditDetailsText = (details: Record<string, unknown>) =>
  Object.entries(details)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${detailName(key)}: ${detailValue(value)}`)
    .join('; ');

export const auditCsvLine = (e: AuditEntry) =>
  csvLine([
    e.createdAt.toISOString(),
    e.actor?.name ?? '',
    e.actor?.email ?? '',
    auditActionLabel(e.action),
    e.action,
    e.target?.name ?? '',
    e.target?.email ?? '',
    auditDetailsText(e.details),
  ]);

export function toOwnSessionJson(s: OwnSession) {
  return {
    _id: s.id,
    browser: s.browser,
    os: s.os,
    address: s.address,
    signedInAt: s.startedAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    current: s.current,
  };
}

/** The device a sign-in comes from, as the admin's list of sessions shows it. */
export const clientOf = (req: Request): SessionClient => ({
  address: req.ip ?? 'unknown',
  userAgent: req.get('user-agent') ?? '',
});

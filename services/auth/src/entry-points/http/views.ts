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

export const AUDIT_CSV_HEADER = csvLine([
  'When',
  'Actor',
  'Actor Email',
  'Action',
  'Target',
  'Target Email',
  'Details',
]);

export const auditCsvLine = (e: AuditEntry) =>
  csvLine([
    e.createdAt.toISOString(),
    e.actor?.name ?? '',
    e.actor?.email ?? '',
    e.action,
    e.target?.name ?? '',
    e.target?.email ?? '',
    JSON.stringify(e.details),
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

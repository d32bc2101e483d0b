import type { AdminRecord, AuditEntry } from '../../data-access/admins-repository';

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

import type { AuditAction } from '@readiness/contracts';
import type { Database } from '@readiness/kit/db';
import { adminsRepository as admins, type AuditInput } from '../data-access/admins-repository';
import { auditTrailRepository as trail, type KnownStudent } from '../data-access/audit-trail-repository';
import { isAdminId } from './admin-accounts/context';

/** An admin action another service announced: who (by id), what, to whom, and what else to keep. */
export interface AnnouncedAction {
  eventId: string;
  actorId: string;
  /** The actor's name as the event gives it, for an admin this service no longer has. */
  actorName?: string;
  action: AuditAction;
  target: { id: string; name: string; email: string } | null;
  details: Record<string, unknown>;
}

/**
 * The audit log's view of the other services: each admin action they announce is written once (by its event
 * id), with the actor named from this service's own admins as they are when the event arrives.
 */
export function createAuditTrail(database: Database) {
  async function actorOf(id: string, fallbackName?: string): Promise<AuditInput['actor']> {
    const admin = isAdminId(id) ? await admins.findById(database.db, id) : undefined;
    if (admin) return { id: admin.id, name: admin.name, email: admin.email };
    return isAdminId(id) ? { id, name: fallbackName ?? '', email: '' } : null;
  }

  return {
    async record(action: AnnouncedAction): Promise<void> {
      await trail.addFromEvent(database.db, action.eventId, {
        actor: await actorOf(action.actorId, action.actorName),
        action: action.action,
        target: action.target,
        details: action.details,
      });
    },
    rememberStudent: (student: KnownStudent) => trail.rememberStudent(database.db, student),
    forgetStudent: (id: string) => trail.forgetStudent(database.db, id),
    /** The student an earlier event named, as a target; only the id when none did. */
    async studentTarget(id: string): Promise<NonNullable<AnnouncedAction['target']>> {
      return (await trail.student(database.db, id)) ?? { id, name: '', email: '' };
    },
  };
}

export type AuditTrail = ReturnType<typeof createAuditTrail>;

import type { AdminAlertRequested } from '@readiness/contracts';
import type { Tx } from '@readiness/kit/db';
import { adminsRepository as admins } from '../data-access/admins-repository';
import { adminEvents } from './events';

/**
 * Tells every active super admin of something the product cannot fix alone (another service's event, `causeEventId`):
 * one `auth.admin-alert.requested.v1` each, in the caller's transaction, so each mail is sent, retried and logged on
 * its own by the notification service. Only this service knows who the super admins are. Returns how many.
 */
export async function alertSuperAdmins(
  tx: Tx,
  causeEventId: string,
  alert: AdminAlertRequested['alert'],
): Promise<number> {
  const superAdmins = (await admins.list(tx)).filter(
    (a) => a.role === 'super_admin' && a.status === 'active',
  );
  for (const admin of superAdmins) await adminEvents.alertRequested(tx, admin, causeEventId, alert);
  return superAdmins.length;
}

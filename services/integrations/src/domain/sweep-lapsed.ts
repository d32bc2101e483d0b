import { deleteLapsed } from '../data-access/deep-links-repository';
import { deleteLapsedRegistrationLinks } from '../data-access/registration-links-repository';
import type { IntegrationsDeps } from './context';

/** How often each replica deletes what has lapsed. */
export const SWEEP_INTERVAL_MS = 5 * 60_000;

/**
 * Deletes the login initiations, deep-linking requests and registration links that have lapsed (used or not): a public route makes them,
 * so they must not pile up. Safe on several replicas at once: each row is deleted once, whoever gets it.
 */
export async function sweepLapsed(deps: Pick<IntegrationsDeps, 'database' | 'logger'>) {
  const deleted = {
    ...(await deleteLapsed(deps.database.db)),
    registrationLinks: await deleteLapsedRegistrationLinks(deps.database.db),
  };
  if (deleted.logins + deleted.deepLinks + deleted.registrationLinks > 0) {
    deps.logger.info(deleted, 'lapsed LTI requests deleted');
  }
  return deleted;
}

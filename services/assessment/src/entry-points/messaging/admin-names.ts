import { on, type EventSubscription } from '@readiness/kit/runtime';
import type { VersionsRepository } from '../../data-access/versions-repository';

/** Keeps the names of admins from auth's events, so a version shows who created it. */
export function adminNameConsumers(repo: VersionsRepository): EventSubscription[] {
  return [
    on('assessment.admin-created', {
      handle: (event) => repo.rememberAdmin(event.adminId, event.name),
    }),
    on('assessment.admin-updated', {
      handle: (event) => repo.rememberAdmin(event.adminId, event.name),
    }),
  ];
}

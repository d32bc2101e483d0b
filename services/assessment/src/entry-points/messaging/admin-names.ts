import { on, type EventSubscription } from '@readiness/kit/runtime';
import type { VersionsRepository } from '../../data-access/versions-repository';

export const ADMIN_CREATED_QUEUE = 'assessment.admin-created';
export const ADMIN_UPDATED_QUEUE = 'assessment.admin-updated';

/** Keeps the names of admins from auth's events, so a version shows who created it. */
export function adminNameConsumers(repo: VersionsRepository): EventSubscription[] {
  return [
    on('auth.admin.created.v1', {
      queue: ADMIN_CREATED_QUEUE,
      handle: (event) => repo.rememberAdmin(event.adminId, event.name),
    }),
    on('auth.admin.updated.v1', {
      queue: ADMIN_UPDATED_QUEUE,
      handle: (event) => repo.rememberAdmin(event.adminId, event.name),
    }),
  ];
}

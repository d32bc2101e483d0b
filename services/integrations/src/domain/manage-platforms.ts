import { LtiPlatformChange, payloadOf } from '@readiness/contracts';
import type { Tx } from '@readiness/kit/db';
import { AppError, conflict, notFound } from '@readiness/kit/errors';
import { enqueue } from '@readiness/kit/outbox';
import {
  deletePlatform,
  findPlatform,
  insertPlatform,
  listPlatforms,
  updatePlatform,
  type PlatformFields,
  type PlatformRecord,
} from '../data-access/platforms-repository';
import { reachableUrl, type IntegrationsDeps } from './context';

export const PLATFORM_CHANGED = 'integrations.lti-platform.changed.v1' as const;
export const PLATFORM_NOT_FOUND_MESSAGE = 'LMS connection not found';
export const PLATFORM_TAKEN_MESSAGE = 'This LMS (issuer and client ID) is already connected';

const URL_FIELDS = [
  ['authUrl', 'Authorization URL'],
  ['jwksUrl', 'Key set URL'],
  ['tokenUrl', 'Access token URL'],
] as const;

/**
 * An LMS's URLs are https: its keys and its answers travel over them. Plain http only on a loopback address, and
 * only where the setting allows it (a developer's LMS, the tests'): `reachableUrl`.
 */
function checkUrls(deps: Pick<IntegrationsDeps, 'allowHttpLoopback'>, p: PlatformFields): void {
  for (const [field, label] of URL_FIELDS) {
    if (!reachableUrl(deps, new URL(p[field]))) {
      throw new AppError('validation_failed', `${label} must be an https URL`, 400, { details: { field } });
    }
  }
}

const changeEvent = (p: PlatformRecord, change: LtiPlatformChange, actorId: string) => ({
  name: PLATFORM_CHANGED,
  payload: payloadOf(PLATFORM_CHANGED, {
    platformId: p.id,
    name: p.name,
    issuer: p.issuer,
    clientId: p.clientId,
    deploymentIds: p.deploymentIds,
    change,
    actorId,
  }),
});

const isUniqueViolation = (err: unknown) =>
  (err as { code?: string; cause?: { code?: string } }).code === '23505' ||
  (err as { cause?: { code?: string } }).cause?.code === '23505';

export const listRegistrations = (deps: IntegrationsDeps) => listPlatforms(deps.database.db);

/** A new registration, with its audit event in the same transaction. */
export async function registerPlatform(
  deps: IntegrationsDeps,
  fields: PlatformFields,
  actorId: string,
): Promise<PlatformRecord> {
  checkUrls(deps, fields);
  return deps.database.transaction(async (tx: Tx) => {
    const created = await insertPlatform(tx, fields);
    if (!created) throw conflict(PLATFORM_TAKEN_MESSAGE, 'platform_exists');
    await enqueue(tx, changeEvent(created, LtiPlatformChange.REGISTERED, actorId));
    await deps.routes.follow(tx);
    return created;
  });
}

/** The registration's new fields; disabling or enabling it is told apart from an edit in the audit log. */
export async function changePlatform(
  deps: IntegrationsDeps,
  id: string,
  fields: PlatformFields,
  actorId: string,
): Promise<PlatformRecord> {
  checkUrls(deps, fields);
  try {
    return await deps.database.transaction(async (tx: Tx) => {
      const before = await findPlatform(tx, id);
      if (!before) throw notFound(PLATFORM_NOT_FOUND_MESSAGE);
      const after = (await updatePlatform(tx, id, fields))!;
      const change =
        before.disabled === after.disabled
          ? LtiPlatformChange.UPDATED
          : after.disabled
            ? LtiPlatformChange.DISABLED
            : LtiPlatformChange.ENABLED;
      await enqueue(tx, changeEvent(after, change, actorId));
      return after;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(PLATFORM_TAKEN_MESSAGE, 'platform_exists');
    throw err;
  }
}

/** Deletes the registration, its waiting logins with it; its launches stay, no longer tied to it. */
export async function removePlatform(deps: IntegrationsDeps, id: string, actorId: string): Promise<void> {
  await deps.database.transaction(async (tx: Tx) => {
    const removed = await deletePlatform(tx, id);
    if (!removed) throw notFound(PLATFORM_NOT_FOUND_MESSAGE);
    await enqueue(tx, changeEvent(removed, LtiPlatformChange.DELETED, actorId));
    deps.routes.settleOnCommit(tx);
  });
}

import type { AdminTokenClaims } from '@readiness/kit/auth';
import { notFound } from '@readiness/kit/errors';
import { adminsRepository as repo, type AdminRecord } from '../../data-access/admins-repository';
import { sessionsRepository as sessions, type SessionRecord } from '../../data-access/sessions-repository';
import type { IssuedToken } from '../credentials';
import { describeDevice, MAX_USER_AGENT_LENGTH, type Device } from '../devices';
import {
  audited,
  committed,
  cutoffNow,
  isAdminId,
  revokeAllSessions,
  type AccountsContext,
  type Authenticated,
} from './context';

export const SESSION_NOT_FOUND = 'Session not found';

/** Where a sign-in comes from, as the request says. */
export interface SessionClient {
  address: string;
  userAgent: string;
}

export interface OwnSession extends Device, Omit<SessionRecord, 'userAgent'> {
  current: boolean;
}

/** A session's calls move its "last seen" at most this often: one small write a minute, not one a call. */
const LAST_SEEN_EVERY_SECONDS = 60;
/** Sessions whose last call this process noted; bounded like the admin cache, cleared when full. */
const SEEN_MAX_ENTRIES = 10_000;

/** Records a new session at sign-in (password or single sign-on). */
export async function startSession(
  ctx: AccountsContext,
  admin: AdminRecord,
  token: IssuedToken,
  startedAt: number,
  client: SessionClient,
): Promise<void> {
  await sessions.start(ctx.database.db, {
    sid: token.sid,
    iat: token.iat,
    exp: token.exp,
    adminId: admin.id,
    startedAt,
    userAgent: client.userAgent.slice(0, MAX_USER_AGENT_LENGTH),
    address: client.address,
  });
}

/** The session's newest token (renewal, own password change). */
export const sessionRenewed = (ctx: AccountsContext, token: IssuedToken) =>
  sessions.renewed(ctx.database.db, token);

/**
 * Notes that a session made a call, without holding the call up: at most once a minute per session and process,
 * and the database skips the write when another replica already made it.
 */
export function sessionSeen(ctx: AccountsContext, claims: AdminTokenClaims): void {
  const sid = claims.sid;
  if (!sid) return;
  const now = Date.now();
  const last = ctx.sessionsSeen.get(sid);
  if (last !== undefined && now - last < LAST_SEEN_EVERY_SECONDS * 1000) return;
  if (ctx.sessionsSeen.size >= SEEN_MAX_ENTRIES) ctx.sessionsSeen.clear();
  ctx.sessionsSeen.set(sid, now);
  sessions.seen(ctx.database.db, sid, LAST_SEEN_EVERY_SECONDS).catch((err: unknown) => {
    ctx.logger.warn({ err }, 'could not record when a session was last seen');
  });
}

/** The admin's own sessions that are still in force, this one marked. */
export async function listOwnSessions(ctx: AccountsContext, actor: Authenticated): Promise<OwnSession[]> {
  const found = await sessions.listActive(ctx.database.db, actor.admin.id);
  return found.map(({ userAgent, ...session }) => ({
    ...session,
    ...describeDevice(userAgent),
    current: session.id === actor.claims.sid,
  }));
}

/**
 * Ends one of the admin's own sessions: its tokens are refused from now on, everywhere. Another admin's session,
 * or an id that is none, is not found; ending a session again changes nothing.
 */
export async function endOwnSession(ctx: AccountsContext, actor: Authenticated, sid: string): Promise<void> {
  if (!isAdminId(sid) || !(await sessions.isOwnedBy(ctx.database.db, actor.admin.id, sid))) {
    throw notFound(SESSION_NOT_FOUND, 'session_not_found');
  }
  // The revocation first, and again when the session was already ended (a revocation that failed before is made
  // good); outside the transaction, which then holds one connection and the row only for its own two writes.
  await ctx.revocations.revokeSession(sid, ctx.tokenTtlSeconds + 60);
  await committed(ctx, async (tx) => {
    if (await sessions.end(tx, actor.admin.id, sid)) {
      await audited(tx, actor.admin, 'admin.session-ended', actor.admin, { session: sid });
    }
  });
}

/** Every session of the admin ends, this one included. */
export async function endAllOwnSessions(ctx: AccountsContext, actor: Authenticated): Promise<void> {
  const cutoff = cutoffNow();
  await committed(ctx, async (tx) => {
    const updated = await repo.update(tx, actor.admin.id, { tokensValidFrom: cutoff });
    if (!updated) throw notFound(SESSION_NOT_FOUND, 'session_not_found');
    await sessions.endAll(tx, actor.admin.id);
    await audited(tx, actor.admin, 'admin.signed-out-everywhere', actor.admin);
    // Inside the transaction: if the store is down nothing is recorded as ended while its tokens still work.
    await revokeAllSessions(ctx, actor.admin.id, cutoff);
  });
}

/** Forgets sessions that ended long ago; one pass of a job. */
export const sweepSessions = (ctx: AccountsContext) => sessions.purgeExpired(ctx.database.db);

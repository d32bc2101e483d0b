import { rows, type Runner } from '@readiness/kit/db';
import { sql } from 'drizzle-orm';

/** A session as the admin sees it in their list (see migration 0005). */
export interface SessionRecord {
  id: string;
  userAgent: string;
  address: string;
  startedAt: Date;
  lastSeenAt: Date;
}

/** The newest token of a session: when it was issued (epoch seconds) and when it expires. */
export interface SessionToken {
  sid: string;
  iat: number;
  exp: number;
}

interface SessionRow {
  id: string;
  user_agent: string;
  address: string;
  started_at: Date | string;
  last_seen_at: Date | string;
}

const epoch = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The admins' sessions: started at sign-in, kept current by renewals and calls, ended by sign-outs. */
export const sessionsRepository = {
  async start(
    runner: Runner,
    session: SessionToken & { adminId: string; startedAt: number; userAgent: string; address: string },
  ): Promise<void> {
    await runner.execute(
      sql`INSERT INTO admin_sessions (id, admin_id, user_agent, address, started_at, last_seen_at, token_issued_at,
            token_expires_at, reauthenticated_at)
          VALUES (${session.sid}, ${session.adminId}, ${session.userAgent}, ${session.address},
            ${epoch(session.startedAt)}, now(), ${session.iat}, ${epoch(session.exp)}, ${epoch(session.startedAt)})
          ON CONFLICT (id) DO NOTHING`,
    );
  },

  /** A new token for the session (renewal, own password change). */
  async renewed(runner: Runner, token: SessionToken): Promise<void> {
    await runner.execute(
      sql`UPDATE admin_sessions
          SET last_seen_at = now(), token_issued_at = ${token.iat}, token_expires_at = ${epoch(token.exp)}
          WHERE id = ${token.sid} AND ended_at IS NULL`,
    );
  },

  /** The session made a call; written only when the last one recorded is older than `afterSeconds`. */
  async seen(runner: Runner, sid: string, afterSeconds: number): Promise<void> {
    await runner.execute(
      sql`UPDATE admin_sessions SET last_seen_at = now()
          WHERE id = ${sid} AND ended_at IS NULL
            AND last_seen_at < now() - make_interval(secs => ${afterSeconds})`,
    );
  },

  /**
   * The admin's sessions that can still make a call: not ended, their newest token not expired and not issued
   * before the admin's cutoff (a password change or reset, a disable, signing out everywhere).
   */
  async listActive(runner: Runner, adminId: string): Promise<SessionRecord[]> {
    const found = await rows<SessionRow>(
      runner,
      sql`SELECT s.id, s.user_agent, s.address, s.started_at, s.last_seen_at
          FROM admin_sessions s JOIN admins a ON a.id = s.admin_id
          WHERE s.admin_id = ${adminId} AND s.ended_at IS NULL AND s.token_expires_at > now()
            AND s.token_issued_at >= a.tokens_valid_from
          ORDER BY s.last_seen_at DESC, s.id`,
    );
    return found.map((s) => ({
      id: s.id,
      userAgent: s.user_agent,
      address: s.address,
      startedAt: new Date(s.started_at),
      lastSeenAt: new Date(s.last_seen_at),
    }));
  },

  /** The session proved its person again just now (step-up); false for a session that is not the admin's or ended. */
  async reauthenticated(runner: Runner, adminId: string, sid: string): Promise<Date | undefined> {
    const [row] = await rows<{ reauthenticated_at: string }>(
      runner,
      sql`UPDATE admin_sessions SET reauthenticated_at = now()
          WHERE id = ${sid} AND admin_id = ${adminId} AND ended_at IS NULL RETURNING reauthenticated_at`,
    );
    return row && new Date(row.reauthenticated_at);
  },

  /** When the admin's session last proved its person (its sign-in or a step-up); nothing for another's or ended. */
  async reauthenticatedAt(runner: Runner, adminId: string, sid: string): Promise<Date | undefined> {
    const [row] = await rows<{ reauthenticated_at: string | null }>(
      runner,
      sql`SELECT reauthenticated_at FROM admin_sessions
          WHERE id = ${sid} AND admin_id = ${adminId} AND ended_at IS NULL`,
    );
    return row?.reauthenticated_at ? new Date(row.reauthenticated_at) : undefined;
  },

  /** Whether the session is the admin's: another admin's session is as unknown as one that never existed. */
  async isOwnedBy(runner: Runner, adminId: string, sid: string): Promise<boolean> {
    const found = await rows<{ id: string }>(
      runner,
      sql`SELECT id FROM admin_sessions WHERE id = ${sid} AND admin_id = ${adminId}`,
    );
    return found.length > 0;
  },

  /** Marks one of the admin's sessions ended; true only for the call that ended it (of a burst, exactly one). */
  async end(runner: Runner, adminId: string, sid: string): Promise<boolean> {
    const ended = await rows<{ id: string }>(
      runner,
      sql`UPDATE admin_sessions SET ended_at = now()
          WHERE id = ${sid} AND admin_id = ${adminId} AND ended_at IS NULL RETURNING id`,
    );
    return ended.length > 0;
  },

  async endAll(runner: Runner, adminId: string): Promise<void> {
    await runner.execute(
      sql`UPDATE admin_sessions SET ended_at = now() WHERE admin_id = ${adminId} AND ended_at IS NULL`,
    );
  },

  /** Sessions whose last token expired a day ago are of no more use to anyone. */
  async purgeExpired(runner: Runner): Promise<void> {
    await runner.execute(sql`DELETE FROM admin_sessions WHERE token_expires_at < now() - interval '1 day'`);
  },
};

import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';

export interface NewLogin {
  state: string;
  nonce: string;
  platformId: string;
  bindingHash: Buffer;
  targetLinkUri: string;
  expiresAt: Date;
}

export interface LoginRecord {
  state: string;
  nonce: string;
  platformId: string;
  bindingHash: Buffer;
  targetLinkUri: string;
}

export async function insertLogin(runner: Runner, l: NewLogin): Promise<void> {
  await runner.execute(
    sql`INSERT INTO lti_logins (state, nonce, platform_id, binding_hash, target_link_uri, expires_at)
        VALUES (${l.state}, ${l.nonce}, ${l.platformId}, ${l.bindingHash}, ${l.targetLinkUri}, ${l.expiresAt})`,
  );
}

/** A login initiation still waiting for its launch: not used, not lapsed. */
export async function pendingLogin(runner: Runner, state: string): Promise<LoginRecord | undefined> {
  const [row] = await rows<{
    state: string;
    nonce: string;
    platform_id: string;
    binding_hash: Buffer;
    target_link_uri: string;
  }>(
    runner,
    sql`SELECT state, nonce, platform_id, binding_hash, target_link_uri FROM lti_logins
        WHERE state = ${state} AND used_at IS NULL AND expires_at > now()`,
  );
  return (
    row && {
      state: row.state,
      nonce: row.nonce,
      platformId: row.platform_id,
      bindingHash: row.binding_hash,
      targetLinkUri: row.target_link_uri,
    }
  );
}

/** Takes the login for its launch: true once, false when another launch took it first. */
export async function takeLogin(runner: Runner, state: string): Promise<boolean> {
  const taken = await rows<{ state: string }>(
    runner,
    sql`UPDATE lti_logins SET used_at = now() WHERE state = ${state} AND used_at IS NULL AND expires_at > now()
        RETURNING state`,
  );
  return taken.length === 1;
}

export interface NewLaunch {
  id: string;
  platformId: string;
  issuer: string;
  subject: string;
  deploymentId: string;
  resourceLinkId: string | null;
  roles: string[];
  ags: unknown;
  nonce: string;
  /** The person's name as the LMS gave it (the instructor's page shows it). */
  name: string;
}

/** Keeps the launch; false when its nonce was accepted before (the same id_token again). */
export async function insertLaunch(runner: Runner, l: NewLaunch): Promise<boolean> {
  const inserted = await rows<{ id: string }>(
    runner,
    sql`INSERT INTO lti_launches (id, platform_id, issuer, subject, deployment_id, resource_link_id, roles, ags, nonce,
                                  name)
        VALUES (${l.id}, ${l.platformId}, ${l.issuer}, ${l.subject}, ${l.deploymentId}, ${l.resourceLinkId},
                ${sql.param(l.roles)}::text[], ${l.ags === undefined ? null : JSON.stringify(l.ags)}::jsonb, ${l.nonce},
                ${l.name})
        ON CONFLICT (nonce) DO NOTHING RETURNING id`,
  );
  return inserted.length === 1;
}

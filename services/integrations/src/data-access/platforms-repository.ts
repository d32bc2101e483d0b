import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';

export interface PlatformFields {
  name: string;
  issuer: string;
  clientId: string;
  deploymentIds: string[];
  authUrl: string;
  jwksUrl: string;
  tokenUrl: string;
  disabled: boolean;
}

export interface PlatformRecord extends PlatformFields {
  id: string;
  createdAt: Date;
  updatedAt: Date;
}

interface PlatformRow {
  id: string;
  name: string;
  issuer: string;
  client_id: string;
  deployment_ids: string[];
  auth_url: string;
  jwks_url: string;
  token_url: string;
  disabled: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = sql`id, name, issuer, client_id, deployment_ids, auth_url, jwks_url, token_url, disabled, created_at, updated_at`;

const toPlatform = (r: PlatformRow): PlatformRecord => ({
  id: r.id,
  name: r.name,
  issuer: r.issuer,
  clientId: r.client_id,
  deploymentIds: r.deployment_ids,
  authUrl: r.auth_url,
  jwksUrl: r.jwks_url,
  tokenUrl: r.token_url,
  disabled: r.disabled,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function listPlatforms(runner: Runner): Promise<PlatformRecord[]> {
  const found = await rows<PlatformRow>(runner, sql`SELECT ${COLUMNS} FROM lti_platforms ORDER BY name, id`);
  return found.map(toPlatform);
}

export async function findPlatform(runner: Runner, id: string): Promise<PlatformRecord | undefined> {
  if (!UUID.test(id)) return undefined;
  const [row] = await rows<PlatformRow>(runner, sql`SELECT ${COLUMNS} FROM lti_platforms WHERE id = ${id}`);
  return row && toPlatform(row);
}

/** The registrations of an issuer: one when the LMS names its client id, every one of that issuer otherwise. */
export async function platformsOfIssuer(
  runner: Runner,
  issuer: string,
  clientId: string | undefined,
): Promise<PlatformRecord[]> {
  const found = await rows<PlatformRow>(
    runner,
    clientId === undefined
      ? sql`SELECT ${COLUMNS} FROM lti_platforms WHERE issuer = ${issuer}`
      : sql`SELECT ${COLUMNS} FROM lti_platforms WHERE issuer = ${issuer} AND client_id = ${clientId}`,
  );
  return found.map(toPlatform);
}

/** Inserts the registration; undefined when its issuer and client id are registered already. */
export async function insertPlatform(runner: Runner, p: PlatformFields): Promise<PlatformRecord | undefined> {
  const [row] = await rows<PlatformRow>(
    runner,
    sql`INSERT INTO lti_platforms (name, issuer, client_id, deployment_ids, auth_url, jwks_url, token_url, disabled)
        VALUES (${p.name}, ${p.issuer}, ${p.clientId}, ${sql.param(p.deploymentIds)}::text[], ${p.authUrl},
                ${p.jwksUrl}, ${p.tokenUrl}, ${p.disabled})
        ON CONFLICT (issuer, client_id) DO NOTHING RETURNING ${COLUMNS}`,
  );
  return row && toPlatform(row);
}

/** Replaces the registration's fields; undefined when it is gone. Throws on another one's issuer and client id. */
export async function updatePlatform(
  runner: Runner,
  id: string,
  p: PlatformFields,
): Promise<PlatformRecord | undefined> {
  const [row] = await rows<PlatformRow>(
    runner,
    sql`UPDATE lti_platforms SET name = ${p.name}, issuer = ${p.issuer}, client_id = ${p.clientId},
          deployment_ids = ${sql.param(p.deploymentIds)}::text[], auth_url = ${p.authUrl}, jwks_url = ${p.jwksUrl},
          token_url = ${p.tokenUrl}, disabled = ${p.disabled}, updated_at = now()
        WHERE id = ${id} RETURNING ${COLUMNS}`,
  );
  return row && toPlatform(row);
}

export async function deletePlatform(runner: Runner, id: string): Promise<PlatformRecord | undefined> {
  const [row] = await rows<PlatformRow>(
    runner,
    sql`DELETE FROM lti_platforms WHERE id = ${id} RETURNING ${COLUMNS}`,
  );
  return row && toPlatform(row);
}

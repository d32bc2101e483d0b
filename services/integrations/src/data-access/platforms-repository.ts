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

/** The columns under their record's names; timestamps as PostgreSQL gives them, made Dates by `toPlatform`. */
type PlatformRow = Omit<PlatformRecord, 'createdAt' | 'updatedAt'> & {
  createdAt: Date | string;
  updatedAt: Date | string;
};

const COLUMNS = sql`id, name, issuer, client_id AS "clientId", deployment_ids AS "deploymentIds", auth_url AS "authUrl",
  jwks_url AS "jwksUrl", token_url AS "tokenUrl", disabled, created_at AS "createdAt", updated_at AS "updatedAt"`;

const toPlatform = (r: PlatformRow): PlatformRecord => ({
  ...r,
  createdAt: new Date(r.createdAt),
  updatedAt: new Date(r.updatedAt),
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

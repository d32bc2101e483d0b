import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';

export async function insertRegistrationLink(
  runner: Runner,
  link: { secretHash: Buffer; createdBy: string; expiresAt: Date },
): Promise<void> {
  await runner.execute(
    sql`INSERT INTO lti_registration_links (secret_hash, created_by, expires_at)
        VALUES (${link.secretHash}, ${link.createdBy}, ${link.expiresAt})`,
  );
}

/** Whether a link is still waiting to be used (checked before anything is fetched for it). */
export async function registrationLinkPending(runner: Runner, secretHash: Buffer): Promise<boolean> {
  const found = await rows<{ one: number }>(
    runner,
    sql`SELECT 1 AS one FROM lti_registration_links
        WHERE secret_hash = ${secretHash} AND used_at IS NULL AND expires_at > now()`,
  );
  return found.length === 1;
}

/** Takes a link for its registration: who made it, once, before it lapses; undefined otherwise. */
export async function takeRegistrationLink(
  runner: Runner,
  secretHash: Buffer,
): Promise<{ createdBy: string } | undefined> {
  const [row] = await rows<{ created_by: string }>(
    runner,
    sql`UPDATE lti_registration_links SET used_at = now()
        WHERE secret_hash = ${secretHash} AND used_at IS NULL AND expires_at > now() RETURNING created_by`,
  );
  return row && { createdBy: row.created_by };
}

export async function noteRegisteredPlatform(
  runner: Runner,
  secretHash: Buffer,
  platformId: string,
): Promise<void> {
  await runner.execute(
    sql`UPDATE lti_registration_links SET platform_id = ${platformId} WHERE secret_hash = ${secretHash}`,
  );
}

/** Links lapsed for a day: gone (a used one keeps its row that long, for the record). */
export async function deleteLapsedRegistrationLinks(runner: Runner): Promise<number> {
  const gone = await rows<{ secret_hash: Buffer }>(
    runner,
    sql`DELETE FROM lti_registration_links WHERE expires_at < now() - interval '1 day' RETURNING secret_hash`,
  );
  return gone.length;
}

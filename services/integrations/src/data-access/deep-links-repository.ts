import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';

export interface DeepLinkRequest {
  platformId: string;
  deploymentId: string;
  /** The verified id_token's `deep_link_return_url`: where the answer is posted. */
  returnUrl: string;
  /** The platform's opaque `data`, echoed in the answer. */
  data: string | null;
}

export async function insertDeepLinkRequest(
  runner: Runner,
  r: DeepLinkRequest & { idHash: Buffer; nonce: string; expiresAt: Date },
): Promise<boolean> {
  const inserted = await rows<{ nonce: string }>(
    runner,
    sql`INSERT INTO lti_deep_link_requests (id_hash, platform_id, deployment_id, return_url, data, nonce, expires_at)
        VALUES (${r.idHash}, ${r.platformId}, ${r.deploymentId}, ${r.returnUrl}, ${r.data}, ${r.nonce}, ${r.expiresAt})
        ON CONFLICT (nonce) DO NOTHING RETURNING nonce`,
  );
  return inserted.length === 1;
}

/** Takes the request for its answer: once, while it has not lapsed; undefined otherwise. */
export async function takeDeepLinkRequest(
  runner: Runner,
  idHash: Buffer,
): Promise<DeepLinkRequest | undefined> {
  const [row] = await rows<{
    platform_id: string;
    deployment_id: string;
    return_url: string;
    data: string | null;
  }>(
    runner,
    sql`UPDATE lti_deep_link_requests SET used_at = now()
        WHERE id_hash = ${idHash} AND used_at IS NULL AND expires_at > now()
        RETURNING platform_id, deployment_id, return_url, data`,
  );
  return (
    row && {
      platformId: row.platform_id,
      deploymentId: row.deployment_id,
      returnUrl: row.return_url,
      data: row.data,
    }
  );
}

/**
 * Deletes what has lapsed: login initiations and deep-linking requests past their expiry, used or not. A plain
 * delete by expiry: replicas running it at once delete each row once, and a replay of a deleted state or request
 * finds nothing, as an expired one does.
 */
export async function deleteLapsed(runner: Runner): Promise<{ logins: number; deepLinks: number }> {
  const logins = await rows<{ n: number }>(
    runner,
    sql`WITH gone AS (DELETE FROM lti_logins WHERE expires_at <= now() RETURNING 1) SELECT count(*)::int AS n FROM gone`,
  );
  const deepLinks = await rows<{ n: number }>(
    runner,
    sql`WITH gone AS (DELETE FROM lti_deep_link_requests WHERE expires_at <= now() RETURNING 1)
        SELECT count(*)::int AS n FROM gone`,
  );
  return { logins: logins[0]?.n ?? 0, deepLinks: deepLinks[0]?.n ?? 0 };
}

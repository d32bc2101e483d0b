import client from 'prom-client';
import { bearerToken, invalidToken, type AdminTokenClaims, type JwtVerifier } from '@readiness/kit/auth';
import { createRevocationList, type KeyValueStore, type RevocationList } from '@readiness/kit/cache';
import { unavailable } from '@readiness/kit/errors';
import type { Logger } from '@readiness/kit/logger';

/** How long a signature check is reused; also how long a removed signing key still counts at the gateway. */
const VERIFIED_TOKEN_TTL_MS = 60_000;
const VERIFIED_TOKEN_LIMIT = 10_000;

/**
 * Tokens whose signature, issuer and audience were checked, reused for a minute and never past their expiry:
 * an admin's token verifies once instead of on every call (an RS256 check was a third of the gateway's CPU on
 * an authenticated read). Revocation is still checked on every request, and every service verifies again.
 */
function verifiedTokens(): {
  get(token: string): AdminTokenClaims | undefined;
  remember(token: string, claims: AdminTokenClaims): AdminTokenClaims;
} {
  const entries = new Map<string, { claims: AdminTokenClaims; until: number }>();
  return {
    get(token) {
      const entry = entries.get(token);
      if (!entry) return undefined;
      if (entry.until > Date.now()) return entry.claims;
      entries.delete(token);
      return undefined;
    },
    remember(token, claims) {
      const now = Date.now();
      const until = Math.min(now + VERIFIED_TOKEN_TTL_MS, claims.exp * 1000);
      if (until > now) {
        // Oldest first out: a Map iterates in insertion order.
        if (entries.size >= VERIFIED_TOKEN_LIMIT) entries.delete(entries.keys().next().value as string);
        entries.set(token, { claims, until });
      }
      return claims;
    },
  };
}

const REVOCATION_WARN_INTERVAL_MS = 60_000;

/**
 * Refuses signed-out tokens (logout, disabled account, password reset) at the edge, from the list auth writes.
 * When the store cannot answer the check fails OPEN: auth re-checks revocation on every admin request it serves, so
 * a Redis outage costs a proxied request to a revoked token, not every admin's access to the portal. The failures
 * are counted and logged (at most once a minute) so the outage is visible.
 */
function revocationCheck(
  store: KeyValueStore | undefined,
  registry: client.Registry,
  logger: Logger,
): (claims: { jti?: string; sub?: string; iat?: number }) => Promise<boolean> {
  if (!store) {
    logger.warn('no Redis or shared store: revoked tokens are refused by the services, not at the gateway');
    return async () => false;
  }
  const revocations: RevocationList = createRevocationList(store);
  const failures = new client.Counter({
    name: 'gateway_revocation_check_failures_total',
    help: 'Token revocation checks that could not reach the store and let the token through (fail open)',
    registers: [registry],
  });
  let lastWarned = 0;
  return async (claims) => {
    try {
      return await revocations.isTokenRevoked(claims);
    } catch (err) {
      failures.inc();
      if (Date.now() - lastWarned >= REVOCATION_WARN_INTERVAL_MS) {
        lastWarned = Date.now();
        logger.warn({ err }, 'token revocation check failed; letting the token through to the services');
      }
      return false;
    }
  };
}

/**
 * The gateway's check on an admin route: a valid admin token that was not signed out, or a 401 (503 without a
 * verifier). Every service checks the token again; this refuses what is plainly refused at the edge.
 */
export function adminAuthoriser(deps: {
  verifier: JwtVerifier | undefined;
  kv: KeyValueStore | undefined;
  registry: client.Registry;
  logger: Logger;
}): (authorization: string | undefined) => Promise<void> {
  const checkRevoked = revocationCheck(deps.kv, deps.registry, deps.logger);
  const verified = verifiedTokens();
  return async (authorization) => {
    const token = bearerToken(authorization);
    if (!token) throw invalidToken();
    if (!deps.verifier) throw unavailable('Service unavailable', 'upstream_unavailable');
    const claims = verified.get(token) ?? verified.remember(token, await deps.verifier.verify(token));
    if (await checkRevoked(claims)) throw invalidToken();
  };
}

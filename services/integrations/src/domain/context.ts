import type { SigningKeys } from '@readiness/kit/auth';
import type { RateLimiter } from '@readiness/kit/cache';
import type { Database } from '@readiness/kit/db';
import type { Logger } from '@readiness/kit/logger';
import type { SecretBox } from '@readiness/kit/outbox';
import type { JWTVerifyGetKey } from 'jose';

/** What the integrations service's use cases are given. */
export interface IntegrationsDeps {
  database: Database;
  logger: Logger;
  /** The tool's own RS256 keys, published at /api/lti/jwks. */
  toolKeys: SigningKeys;
  /** Seals the launch tickets the student service opens (the services' shared key, its own purpose). */
  launchTickets: SecretBox;
  /** The key set of an LMS, fetched from its JWKS URL, cached, fetched again for a key it does not know yet. */
  platformKeys(jwksUrl: string): JWTVerifyGetKey;
  publicOrigin: string;
  allowHttpLoopback: boolean;
  loginTtlSeconds: number;
  clockSkewSeconds: number;
  /** Login initiations per client address and minute. */
  loginLimit: RateLimiter;
}

/** The tool's URLs under the site's origin, as an LMS is told them. */
export function toolUrls(publicOrigin: string) {
  const origin = publicOrigin.replace(/\/+$/, '');
  return {
    loginUrl: `${origin}/api/lti/login`,
    launchUrl: `${origin}/api/lti/launch`,
    jwksUrl: `${origin}/api/lti/jwks`,
  };
}

import type { SigningKeys } from '@readiness/kit/auth';
import type { RateLimiter } from '@readiness/kit/cache';
import type { Database } from '@readiness/kit/db';
import type { Logger } from '@readiness/kit/logger';
import type { SecretBox } from '@readiness/kit/outbox';
import type { JWTVerifyGetKey } from 'jose';
import type { EventRoutes } from './event-routes';
import type { WebhooksDeps } from './webhooks/manage';

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
  /** The webhook endpoints' store, their secrets' box and what addresses they may have. */
  webhooks: WebhooksDeps;
  /** The grades queue's bindings, which follow the LMS connections (docs/events.md, "Bound on demand"). */
  routes: EventRoutes;
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

/** Loopback hosts as `URL.hostname` gives them; browsers count them as potentially trustworthy over plain http. */
export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether the tool may talk to an LMS at this URL: https, or plain http on a loopback address where the setting
 * allows it (a developer's LMS, the tests').
 */
export function reachableUrl(deps: Pick<IntegrationsDeps, 'allowHttpLoopback'>, url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return deps.allowHttpLoopback && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

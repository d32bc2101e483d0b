import { AppError } from '@readiness/kit/errors';
import type { Logger } from '@readiness/kit/logger';
import * as oidc from 'openid-client';
import {
  PROVIDER_UNAVAILABLE,
  SignInRefused,
  type IdentityProvider,
  type ProviderIdentity,
} from '../domain/identity-provider';

/**
 * `email_verified`, or Entra ID's `xms_edov` (the address's domain is verified by the tenant that owns it): Entra
 * never sends `email_verified`.
 */
const verified = (claims: Record<string, unknown>) =>
  claims.email_verified === true || claims.xms_edov === true;

/** How long a failed discovery is remembered before the next sign-in asks the provider again. */
const RETRY_DISCOVERY_MS = 10_000;

/**
 * The institution's OpenID Provider through `openid-client` (authorization code flow with PKCE). Discovery is
 * lazy: a provider that is down at start does not stop the service (password sign-in goes on), and the next
 * sign-in after it is back discovers it.
 */
export function createIdentityProvider(options: {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
  logger: Logger;
}): IdentityProvider {
  const issuer = new URL(options.issuer);
  // The configuration only lets plain HTTP through for a loopback issuer.
  const insecure = issuer.protocol === 'http:';
  let discovered: Promise<oidc.Configuration> | undefined;
  let failedAt = 0;

  function configuration(): Promise<oidc.Configuration> {
    if (!discovered || (failedAt && Date.now() - failedAt > RETRY_DISCOVERY_MS)) {
      failedAt = 0;
      discovered = oidc
        .discovery(
          issuer,
          options.clientId,
          options.clientSecret,
          options.clientSecret ? undefined : oidc.None(),
          { execute: insecure ? [oidc.allowInsecureRequests] : [], timeout: 5 },
        )
        .catch((err: unknown) => {
          failedAt = Date.now();
          options.logger.warn({ err, issuer: options.issuer }, 'the OpenID Provider cannot be reached');
          throw new AppError(PROVIDER_UNAVAILABLE, 'The identity provider cannot be reached.', 503, {
            cause: err,
          });
        });
    }
    return discovered;
  }

  return {
    async begin() {
      const config = await configuration();
      const secrets = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state: secrets.state,
        nonce: secrets.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(secrets.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { secrets, url: url.href };
    },

    async identify(callbackUrl, secrets) {
      const config = await configuration();
      const error = callbackUrl.searchParams.get('error');
      if (error) {
        throw new SignInRefused(
          error === 'access_denied' ? 'cancelled' : 'failed',
          `the provider answered ${error}`,
        );
      }
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: secrets.codeVerifier,
          expectedState: secrets.state,
          expectedNonce: secrets.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        throw new SignInRefused('failed', (err as Error).message);
      }
      const claims = tokens.claims()!;
      let identity: ProviderIdentity = {
        subject: claims.sub,
        email: typeof claims.email === 'string' ? claims.email : undefined,
        emailVerified: verified(claims as Record<string, unknown>),
        name: typeof claims.name === 'string' ? claims.name : undefined,
      };
      // Providers that follow the specification to the letter put the e-mail in userinfo, not in the ID token.
      if (!identity.email && config.serverMetadata().userinfo_endpoint) {
        const info = await oidc
          .fetchUserInfo(config, tokens.access_token, claims.sub)
          .catch((err: unknown) => {
            throw new SignInRefused('failed', `userinfo: ${(err as Error).message}`);
          });
        identity = {
          ...identity,
          email: typeof info.email === 'string' ? info.email : undefined,
          emailVerified: verified(info as Record<string, unknown>),
          name: identity.name ?? (typeof info.name === 'string' ? info.name : undefined),
        };
      }
      return identity;
    },

    async endSessionUrl(postLogoutRedirectUri) {
      const config = await configuration().catch(() => undefined);
      if (!config?.serverMetadata().end_session_endpoint) return undefined;
      return oidc
        .buildEndSessionUrl(config, {
          client_id: options.clientId,
          post_logout_redirect_uri: postLogoutRedirectUri,
        })
        .toString();
    },
  };
}

import { webcrypto } from 'node:crypto';
import type { SigningKeys } from '@readiness/kit/auth';
import * as oidc from 'openid-client';

/** The scope the tool asks for: posting scores to a line item (Assignment and Grade Services 2.0). */
export const SCORE_SCOPE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';

/**
 * Why an LMS gave no access token: its status and the start of its answer, as the delivery records them. Always
 * tried again until the score is given up: a refused client assertion is most often a registration being set up
 * (the tool's key set URL not pasted yet, or not fetched again after a key rotation), which the next try finds fixed.
 */
export class TokenRefused extends Error {
  constructor(
    readonly status: number | null,
    readonly answer: string,
  ) {
    super(`the LMS gave no access token (${status ?? 'no answer'})`);
  }
}

interface Platform {
  id: string;
  issuer: string;
  clientId: string;
  tokenUrl: string;
}

/**
 * Access tokens for the grade service, one per LMS registration: the OAuth 2 client-credentials grant with a JWT
 * the tool signs (`private_key_jwt`; its `aud` the LMS's token URL, as Moodle and Canvas check it), kept until a
 * minute before the LMS says it expires, or until the LMS refuses it (`forget`).
 */
export function platformTokens(keys: SigningKeys, options: { allowInsecure: (url: URL) => boolean }) {
  const cache = new Map<string, { token: string; until: number }>();
  let signingKey: Promise<webcrypto.CryptoKey> | undefined;
  const cryptoKey = () =>
    (signingKey ??= webcrypto.subtle.importKey(
      'pkcs8',
      keys.privateKey.export({ type: 'pkcs8', format: 'der' }),
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['sign'],
    ));

  async function request(p: Platform): Promise<{ token: string; until: number }> {
    const config = new oidc.Configuration(
      { issuer: p.issuer, token_endpoint: p.tokenUrl },
      p.clientId,
      {},
      oidc.PrivateKeyJwt(
        { key: await cryptoKey(), kid: keys.kid },
        {
          [oidc.modifyAssertion]: (_header, payload) => {
            payload.aud = p.tokenUrl;
          },
        },
      ),
    );
    config[oidc.customFetch] = (url, init) =>
      fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    if (options.allowInsecure(new URL(p.tokenUrl))) oidc.allowInsecureRequests(config);
    try {
      const answer = await oidc.clientCredentialsGrant(config, { scope: SCORE_SCOPE });
      const lifetime = answer.expires_in ?? 3600;
      return { token: answer.access_token, until: Date.now() + Math.max(lifetime - 60, 0) * 1000 };
    } catch (err) {
      throw refusal(err);
    }
  }

  return {
    async token(p: Platform): Promise<string> {
      const kept = cache.get(p.id);
      if (kept && kept.until > Date.now()) return kept.token;
      const fresh = await request(p);
      cache.set(p.id, fresh);
      return fresh.token;
    },
    forget(platformId: string) {
      cache.delete(platformId);
    },
  };
}

export type PlatformTokens = ReturnType<typeof platformTokens>;

function refusal(err: unknown): TokenRefused {
  if (err instanceof oidc.ResponseBodyError) {
    const status = err.status;
    const answer = JSON.stringify(err.cause ?? { error: err.error }).slice(0, 1024);
    return new TokenRefused(status, answer);
  }
  const response = (err as { cause?: unknown }).cause;
  if (response instanceof Response) {
    return new TokenRefused(response.status, `${response.status} ${response.statusText}`);
  }
  return new TokenRefused(null, err instanceof Error ? err.message : String(err));
}

import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import { assertSessionAllowed, type SessionRules, type SignInMethod } from './session-rules';

/** The only algorithm admin tokens are signed with; pinned so `alg: none` and HS256-with-the-public-key are refused. */
const ADMIN_TOKEN_ALGORITHM = 'RS256';

/** Claims every admin token carries (see the auth service's token issuer). */
export interface AdminTokenClaims {
  /** Admin id. */
  sub: string;
  /** Role at issue time. Use it for routing decisions only; the auth service re-reads the role from its database. */
  role: string;
  /** Token id, used for per-token revocation. */
  jti: string;
  /**
   * Session id: set at login and carried over by every renewal (refresh, password change), so logout revokes
   * the session and with it every token renewed from it. Absent only from tokens issued before sessions existed.
   */
  sid?: string;
  /**
   * When the session began (the sign-in), seconds since the epoch; carried over by every renewal. No token of the
   * session expires later than this plus the session's maximum age (ADMIN_SESSION_MAX_HOURS).
   */
  auth_time?: number;
  /**
   * How the session's sign-in was made (`pwd`, `otp`, `passkey`, `sso`…); carried over by every renewal. Absent
   * only from tokens issued before it was recorded, which count as signed in without the provider.
   */
  amr?: SignInMethod[];
  /** Present and true while the admin must replace a temporary password before anything else. */
  must_change_password?: boolean;
  /** Issued-at, seconds since the epoch. */
  iat: number;
  /** Expiry, seconds since the epoch. */
  exp: number;
  iss: string;
  aud: string | string[];
}

/** A public verification key as configured: a PEM string, a JWK, or a ready KeyObject. */
export interface PublicKeyInput {
  kid: string;
  key: string | JsonWebKey | KeyObject;
}

export interface JwtVerifierOptions {
  /** Where the signer publishes its keys (`/.well-known/jwks.json` of the auth service). */
  jwksUrl?: string;
  /** Keys known up front (the auth service itself, or a deployment that pins keys). Used with or without `jwksUrl`. */
  publicKeys?: PublicKeyInput[];
  issuer: string;
  audience: string;
  /** Seconds of clock skew accepted on `exp`/`iat`. Default 5. */
  clockToleranceSeconds?: number;
  /**
   * Minimum time between two JWKS fetches triggered by unknown `kid`s. A stream of forged tokens with random
   * kids must not turn into a stream of requests to the auth service. Default 30 s.
   */
  minRefreshIntervalMs?: number;
  /** Keys are re-fetched in the background when older than this, so a removed key stops being trusted. Default 10 min. */
  maxKeyAgeMs?: number;
  /** Timeout of one JWKS request. Default 5 s. */
  fetchTimeoutMs?: number;
  logger?: Logger;
  /**
   * The settings in force (maximum session age, who may sign in without the provider): a token they no longer
   * allow is refused however it was issued (`sessionRulesOf(config)`). Without them only the token is checked.
   */
  sessionRules?: SessionRules;
  /** Injected in tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface JwtVerifier {
  /** Resolves with the claims of a valid token; rejects with a 401 `AppError` otherwise (never anything else for bad tokens). */
  verify(token: string): Promise<AdminTokenClaims>;
  /** Fetches the JWKS now (no-op without `jwksUrl`). */
  refresh(): Promise<void>;
  /** The kids currently trusted (for diagnostics and tests). */
  knownKids(): string[];
}

const INVALID_TOKEN_MESSAGE = 'Not authorized';
const EXPIRED_TOKEN_MESSAGE = 'Your session has expired. Please sign in again.';

export function invalidToken(): AppError {
  return new AppError('invalid_token', INVALID_TOKEN_MESSAGE, 401);
}

/** Reads `Authorization: Bearer <token>`; the token travels in that header only (no cookie). */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const match = /^Bearer[ ]+([A-Za-z0-9_\-.~+/=]+)$/i.exec(value.trim());
  return match?.[1];
}

function toKeyObject(key: PublicKeyInput['key']): KeyObject {
  if (typeof key === 'string') return createPublicKey(key);
  if ('asymmetricKeyType' in key && typeof (key as KeyObject).export === 'function') {
    const object = key as KeyObject;
    // A private key object also verifies, but only its public half should ever be held by a verifier.
    return object.type === 'private' ? createPublicKey(object) : object;
  }
  return createPublicKey({ key: key as JsonWebKey, format: 'jwk' });
}

function isClaims(payload: unknown): payload is AdminTokenClaims {
  if (!payload || typeof payload !== 'object') return false;
  const p = payload as Record<string, unknown>;
  return (
    typeof p.sub === 'string' &&
    p.sub.length > 0 &&
    typeof p.role === 'string' &&
    typeof p.jti === 'string' &&
    typeof p.iat === 'number' &&
    typeof p.exp === 'number'
  );
}

/** The token was not judged: the key set could not be fetched or read (rather than the token being bad). */
const keysUnreachable = (err: unknown) =>
  err instanceof errors.JWKSTimeout ||
  err instanceof errors.JWKSInvalid ||
  !(err instanceof errors.JOSEError || err instanceof AppError);

/**
 * Verifies admin JWTs the same way everywhere (gateway, auth service, any service that wants to), with `jose`:
 * RS256 only, pinned issuer and audience, keys from configuration or the signer's JWKS — never from the token
 * header. The JWKS is fetched on first use, again for an unknown `kid` at most once per `minRefreshIntervalMs`
 * (a stream of forged tokens with random kids is not a stream of requests to auth), and again when older than
 * `maxKeyAgeMs` (a removed key stops being trusted).
 */
export function createJwtVerifier(options: JwtVerifierOptions): JwtVerifier {
  if (!options.jwksUrl && !options.publicKeys?.length) {
    throw new Error('createJwtVerifier needs jwksUrl or publicKeys');
  }
  const staticKeys = new Map<string, KeyObject>();
  for (const { kid, key } of options.publicKeys ?? []) staticKeys.set(kid, toKeyObject(key));
  const remote = options.jwksUrl
    ? createRemoteJWKSet(new URL(options.jwksUrl), {
        cooldownDuration: options.minRefreshIntervalMs ?? 30_000,
        cacheMaxAge: options.maxKeyAgeMs ?? 10 * 60_000,
        timeoutDuration: options.fetchTimeoutMs ?? 5_000,
        ...(options.fetch ? { [customFetch]: options.fetch } : {}),
      })
    : undefined;

  const keyFor: JWTVerifyGetKey = (header, token) => {
    const known = header.kid === undefined ? undefined : staticKeys.get(header.kid);
    if (known) return known;
    if (!remote) throw invalidToken();
    return remote(header, token);
  };

  return {
    async verify(token: string): Promise<AdminTokenClaims> {
      if (typeof token !== 'string' || token.length === 0 || token.length > 8192) throw invalidToken();
      let payload: unknown;
      try {
        ({ payload } = await jwtVerify(token, keyFor, {
          algorithms: [ADMIN_TOKEN_ALGORITHM],
          issuer: options.issuer,
          audience: options.audience,
          clockTolerance: options.clockToleranceSeconds ?? 5,
        }));
      } catch (err) {
        if (err instanceof errors.JWTExpired) throw new AppError('token_expired', EXPIRED_TOKEN_MESSAGE, 401);
        if (keysUnreachable(err)) {
          options.logger?.warn({ err, url: options.jwksUrl }, 'the signing keys could not be fetched');
        }
        throw invalidToken();
      }
      if (!isClaims(payload)) throw invalidToken();
      if (options.sessionRules) {
        assertSessionAllowed(payload, options.sessionRules, Math.floor(Date.now() / 1000));
      }
      return payload;
    },
    refresh: async () => {
      await remote?.reload().catch((err: unknown) => {
        options.logger?.warn(
          { err, url: options.jwksUrl },
          'JWKS refresh failed; keeping the keys already known',
        );
      });
    },
    knownKids: () => [
      ...new Set([
        ...staticKeys.keys(),
        ...(remote?.jwks()?.keys ?? []).flatMap((k) => (typeof k.kid === 'string' ? [k.kid] : [])),
      ]),
    ],
  };
}

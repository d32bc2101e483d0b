import { sign, type KeyObject } from 'node:crypto';

const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export interface TestJwtOptions {
  /** The header's `kid`. */
  kid?: string;
  /** `exp` this many seconds after `iat` (the claims' own, or now). */
  expiresIn?: number;
  subject?: string;
  issuer?: string;
  audience?: string;
  jwtid?: string;
}

/**
 * A JWT signed with RS256 (RSASSA-PKCS1-v1_5 over SHA-256) at once, with the header auth's tokens carry
 * (`alg`, `typ`, `kid`). Auth signs with jose, which is asynchronous; tests build tokens in tables and small helpers,
 * so theirs are put together here, and the services check them with jose like any token auth issues. Claims are
 * taken as given: a test may date a token in the past or name another issuer.
 */
export function signTestJwt(
  claims: Record<string, unknown>,
  privateKey: KeyObject,
  options: TestJwtOptions = {},
): string {
  const iat = typeof claims.iat === 'number' ? claims.iat : Math.floor(Date.now() / 1000);
  const payload = {
    ...claims,
    iat,
    ...(options.expiresIn === undefined ? {} : { exp: iat + options.expiresIn }),
    ...(options.subject === undefined ? {} : { sub: options.subject }),
    ...(options.issuer === undefined ? {} : { iss: options.issuer }),
    ...(options.audience === undefined ? {} : { aud: options.audience }),
    ...(options.jwtid === undefined ? {} : { jti: options.jwtid }),
  };
  const header = { alg: 'RS256', typ: 'JWT', ...(options.kid === undefined ? {} : { kid: options.kid }) };
  const input = `${segment(header)}.${segment(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

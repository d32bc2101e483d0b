import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { TokenIssuer } from '../domain/credentials';
import type { SigningKeys } from './signing-keys';

/** Signs admin tokens with the service's current RS256 key (JWT). */
export function createTokenIssuer(options: {
  keys: SigningKeys;
  issuer: string;
  audience: string;
  ttlSeconds: number;
  sessionMaxSeconds: number;
}): TokenIssuer {
  const sessionEnd = (startedAt: number) => startedAt + Math.floor(options.sessionMaxSeconds);
  return {
    sessionEnd,
    issue(admin, session) {
      const iat = Math.max(Math.floor(Date.now() / 1000), admin.tokensValidFrom);
      const exp = Math.min(iat + options.ttlSeconds, sessionEnd(session.startedAt));
      const jti = randomUUID();
      // The role and a pending password change let every service authorise without asking auth. Setting or
      // clearing the pending change revokes the admin's older tokens (cutoff); the role is as of issue time
      // (auth itself re-reads it on every call, and a renewal carries the current one).
      const claims = {
        role: admin.role,
        sid: session.id,
        auth_time: session.startedAt,
        amr: session.methods,
        ...(admin.mustChangePassword ? { must_change_password: true } : {}),
        iat,
        exp,
      };
      const token = jwt.sign(claims, options.keys.privateKey, {
        algorithm: 'RS256',
        keyid: options.keys.kid,
        subject: admin.id,
        jwtid: jti,
        issuer: options.issuer,
        audience: options.audience,
      });
      return { token, jti, sid: session.id, iat, exp };
    },
  };
}

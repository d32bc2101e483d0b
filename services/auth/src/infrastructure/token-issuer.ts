import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { TokenIssuer } from '../domain/credentials';
import type { SigningKeys } from '@readiness/kit/auth';

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
    async issue(admin, session) {
      const iat = Math.max(Math.floor(Date.now() / 1000), admin.tokensValidFrom);
      const exp = Math.min(iat + options.ttlSeconds, sessionEnd(session.startedAt));
      const jti = randomUUID();
      // The role and a pending password change let every service authorise without asking auth. Setting or
      // clearing the pending change revokes the admin's older tokens (cutoff); the role is as of issue time
      // (auth itself re-reads it on every call, and a renewal carries the current one).
      const token = await new SignJWT({
        role: admin.role,
        sid: session.id,
        auth_time: session.startedAt,
        amr: session.methods,
        ...(admin.mustChangePassword ? { must_change_password: true } : {}),
      })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: options.keys.kid })
        .setSubject(admin.id)
        .setJti(jti)
        .setIssuer(options.issuer)
        .setAudience(options.audience)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(options.keys.privateKey);
      return { token, jti, sid: session.id, iat, exp };
    },
  };
}

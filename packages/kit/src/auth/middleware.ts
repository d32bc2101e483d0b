import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { toAppError } from '../errors';
import { bearerToken, invalidToken, type AdminTokenClaims, type JwtVerifier } from './jwt-verifier';

export interface RequireAdminTokenOptions {
  verifier: JwtVerifier;
  /**
   * Revocation check after the signature is good (logout revokes a `jti`; disable, password reset and password
   * change revoke every token of the admin issued before a moment). Return true to refuse the token.
   */
  isRevoked?: (claims: AdminTokenClaims) => Promise<boolean>;
}

/** Claims of the verified token of this request (set by `requireAdminToken`). */
export function adminClaims(res: Response): AdminTokenClaims {
  const claims = (res.locals as { adminClaims?: AdminTokenClaims }).adminClaims;
  if (!claims) throw invalidToken();
  return claims;
}

/**
 * Express middleware: 401 unless the request carries `Authorization: Bearer <valid admin JWT>` that is not revoked.
 * The claims land in `res.locals.adminClaims` (read them with `adminClaims(res)`).
 */
export function requireAdminToken(options: RequireAdminTokenOptions): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) {
      next(invalidToken());
      return;
    }
    options.verifier
      .verify(token)
      .then(async (claims) => {
        if (options.isRevoked && (await options.isRevoked(claims))) throw invalidToken();
        (res.locals as { adminClaims?: AdminTokenClaims }).adminClaims = claims;
        next();
      })
      .catch((err: unknown) => next(toAppError(err)));
  };
}

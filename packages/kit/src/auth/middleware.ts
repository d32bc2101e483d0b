import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, forbidden, toAppError } from '../errors';
import type { Logger } from '../logger';
import {
  bearerToken,
  createJwtVerifier,
  invalidToken,
  type AdminTokenClaims,
  type JwtVerifier,
} from './jwt-verifier';
import { SUPER_ADMIN_ROLE, sessionRulesOf } from './session-rules';

export { SUPER_ADMIN_ROLE };

const PASSWORD_CHANGE_REQUIRED_MESSAGE = 'You must set a new password before continuing';

function passwordChangeRequired(): AppError {
  return new AppError('password_change_required', PASSWORD_CHANGE_REQUIRED_MESSAGE, 403);
}

/** What a route asks of the admin calling it. */
export interface AdminAccess {
  /** Only super admins (403 for others). */
  superAdmin?: boolean;
  /**
   * The route is usable while a temporary password waits to be replaced (sign-out, the own profile, the
   * password change itself). Every other admin route answers 403 until then.
   */
  allowPendingPasswordChange?: boolean;
}

/** The one authorisation rule for admin routes, for the kit middleware and the auth service's own check alike. */
export function assertAdminAccess(
  admin: { role: string; mustChangePassword: boolean },
  access: AdminAccess = {},
): void {
  if (admin.mustChangePassword && !access.allowPendingPasswordChange) throw passwordChangeRequired();
  if (access.superAdmin && admin.role !== SUPER_ADMIN_ROLE) throw forbidden();
}

export interface RequireAdminTokenOptions extends AdminAccess {
  verifier: JwtVerifier;
  /**
   * Revocation check after the signature is good (logout revokes a session; disable, password reset and
   * password change revoke every token of the admin issued before a moment). Return true to refuse the token.
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
 * The id of the super admin calling a route the runtime's admin guard let every admin into; 403 for any other admin
 * (LMS connections, webhooks, data retention).
 */
export function superAdminId(res: Response): string {
  const claims = adminClaims(res);
  assertAdminAccess({ role: claims.role, mustChangePassword: false }, { superAdmin: true });
  return claims.sub;
}

/**
 * Express middleware: 401 unless the request carries `Authorization: Bearer <valid admin JWT>` that is not
 * revoked; 403 when the token's role or a pending password change does not allow the route.
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
        assertAdminAccess(
          { role: claims.role, mustChangePassword: claims.must_change_password === true },
          options,
        );
        (res.locals as { adminClaims?: AdminTokenClaims }).adminClaims = claims;
        next();
      })
      .catch((err: unknown) => next(toAppError(err)));
  };
}

export interface AdminGuardOptions extends AdminAccess {
  /** The service's config: the shared `jwtEnv` and where auth is (see `adminAuthEnv`). */
  config: {
    JWT_ISSUER: string;
    JWT_AUDIENCE: string;
    ADMIN_SESSION_MAX_HOURS: number;
    OIDC_ALLOW_PASSWORD: boolean;
    AUTH_URL?: string;
    AUTH_JWKS_URL?: string;
  };
  logger: Logger;
  /** A verifier that already holds the keys (the all-in-one passes auth's); otherwise one on `AUTH_JWKS_URL`. */
  verifier?: JwtVerifier;
  isRevoked?: (claims: AdminTokenClaims) => Promise<boolean>;
}

/**
 * What a service mounts on its own `/api/admin` routes (`app.use('/api/admin', adminGuard(...))`), so that a
 * request that bypasses the gateway meets the same check. With neither a verifier nor a JWKS URL nothing can
 * be verified, and every admin request is refused with 401.
 */
export function adminGuard(options: AdminGuardOptions): RequestHandler {
  const { AUTH_URL, AUTH_JWKS_URL } = options.config;
  const jwksUrl = AUTH_JWKS_URL ?? (AUTH_URL && `${AUTH_URL.replace(/\/+$/, '')}/.well-known/jwks.json`);
  const verifier =
    options.verifier ??
    (jwksUrl
      ? createJwtVerifier({
          jwksUrl,
          issuer: options.config.JWT_ISSUER,
          audience: options.config.JWT_AUDIENCE,
          sessionRules: sessionRulesOf(options.config),
          logger: options.logger,
        })
      : undefined);
  if (!verifier) {
    options.logger.warn('neither AUTH_URL nor AUTH_JWKS_URL is set: every /api/admin request is refused');
    return (_req, _res, next) => next(invalidToken());
  }
  return requireAdminToken({ ...options, verifier });
}

import { assertAdminAccess, bearerToken, invalidToken, type AdminAccess } from '@readiness/kit/auth';
import { notFound } from '@readiness/kit/errors';
import { operationsFor, serviceApi } from '@readiness/kit/openapi';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { ADMIN_NOT_FOUND, SESSION_NOT_FOUND, type Authenticated } from '../../domain/admin-accounts';
import type { AuthApiDeps } from './deps';
import { multiFactorOperations } from './multi-factor';
import { passkeyOperations } from './passkeys';
import { singleSignOnOperations } from './single-sign-on';
import {
  AUDIT_CSV_HEADER,
  auditCsvLine,
  auditFilter,
  toAdminJson,
  toAuditJson,
  toOwnSessionJson,
} from './views';

const AUDIT_EXPORT_MAX = 10_000;
import {
  adminResponse,
  adminsResponse,
  auditExportQuery,
  auditQuery,
  auditResponse,
  changePasswordBody,
  createAdminBody,
  jwksResponse,
  loginBody,
  loginResponse,
  ownSessionsResponse,
  resetPasswordResponse,
  sessionResponse,
  statusBody,
  tokenResponse,
  updateAdminBody,
} from './schemas';

const session = (res: Response): Authenticated => {
  const auth = (res.locals as { auth?: Authenticated }).auth;
  if (!auth) throw invalidToken();
  return auth;
};

/**
 * Verified, not revoked, active, then the kit's rule for admin routes, applied to the admin's current row
 * (role and pending password change as they are now, not as the token says).
 */
const authenticated =
  (access: AdminAccess = {}) =>
  ({ accounts }: AuthApiDeps): RequestHandler[] => [
    (req: Request, res: Response, next: NextFunction) => {
      const token = bearerToken(req.headers.authorization);
      if (!token) {
        next(invalidToken());
        return;
      }
      accounts
        .authenticate(token)
        .then((auth) => {
          assertAdminAccess(auth.admin, access);
          (res.locals as { auth?: Authenticated }).auth = auth;
          next();
        })
        .catch(next);
    },
  ];
const pending = authenticated({ allowPendingPasswordChange: true });
const signedIn = authenticated();
const superAdmin = authenticated({ superAdmin: true });

const INVALID = 'Invalid input; `message` names the first problem';
const UNAUTHORIZED = 'Missing, invalid, expired or revoked token';
const FORBIDDEN = 'Not allowed for this admin (super admin only, or a password change is required first)';
const NOT_FOUND = 'Admin not found';
const CONFLICT = 'Conflict';

const ok = (body: z.ZodType) => ({ description: 'OK', body });
const adminId = z.object({ id: z.uuid() });
const sessionId = z.object({ id: z.uuid() });
const unknownSession = () => notFound(SESSION_NOT_FOUND, 'session_not_found');
/** An id that cannot be an admin's is an unknown admin. */
const unknownAdmin = () => notFound(ADMIN_NOT_FOUND, 'admin_not_found');
const adminChanged = {
  200: ok(adminResponse),
  400: INVALID,
  401: UNAUTHORIZED,
  403: FORBIDDEN,
  404: NOT_FOUND,
  409: CONFLICT,
};

const operation = operationsFor<AuthApiDeps>();

/** Verifiers cache the keys and re-fetch on an unknown kid; a short max-age keeps rotations quick. */
const jwks = operation({
  tags: ['auth'],
  summary: 'Public keys that verify admin tokens',
  responses: { 200: ok(jwksResponse) },
  handle: ({ res }, { keys }) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    return keys.jwks;
  },
});

/**
 * The auth service's API, each operation declared once (served at /openapi.json for the gateway). It checks its
 * own sessions: each admin operation names the access it needs, checked before anything is parsed.
 */
export const authApi = serviceApi<AuthApiDeps>({
  service: 'auth',
  tags: [
    { name: 'auth', description: 'Signing in and the own session' },
    { name: 'admins', description: 'Admin accounts and the audit log (super admin)' },
  ],
  operations: {
    'GET /.well-known/jwks.json': jwks,
    'GET /api/auth/jwks.json': { ...jwks, summary: 'The same public keys under the API prefix' },
    'POST /api/auth/login': operation({
      tags: ['auth'],
      summary:
        'Sign in with e-mail and password (a challenge instead of a session when a second factor is needed)',
      body: loginBody,
      responses: {
        200: ok(loginResponse),
        400: INVALID,
        401: 'Wrong e-mail or password (`invalid_credentials`); the right password of a disabled account (`account_disabled`)',
        429: 'Too many login attempts (see Retry-After)',
      },
      async handle({ body, req }, { accounts }) {
        const signedIn = await accounts.login(
          body.email,
          body.password,
          req.ip ?? 'unknown',
          req.get('user-agent'),
        );
        if ('mfaRequired' in signedIn) return signedIn;
        return { token: signedIn.token.token, admin: toAdminJson(signedIn.admin) };
      },
    }),
    ...multiFactorOperations({ signedIn, superAdmin, session, adminId, unknownAdmin }),
    ...passkeyOperations({ signedIn, session }),
    ...singleSignOnOperations,
    'GET /api/auth/me': operation({
      tags: ['auth'],
      summary: 'The signed-in admin',
      admin: true,
      before: pending,
      responses: { 200: ok(adminResponse), 401: UNAUTHORIZED },
      handle: ({ res }) => ({ admin: toAdminJson(session(res).admin) }),
    }),
    'POST /api/auth/logout': operation({
      tags: ['auth'],
      summary: 'Revoke the presented token',
      admin: true,
      before: pending,
      responses: { 204: { description: 'Signed out' }, 401: UNAUTHORIZED },
      async handle({ res }, { accounts }) {
        await accounts.logout(session(res).claims);
        res.status(204).end();
      },
    }),
    'POST /api/auth/refresh': operation({
      tags: ['auth'],
      summary: 'A fresh token for a still-valid one',
      admin: true,
      before: signedIn,
      responses: { 200: ok(tokenResponse), 401: UNAUTHORIZED, 403: FORBIDDEN },
      handle: async ({ res }, { accounts }) => ({ token: (await accounts.refresh(session(res))).token }),
    }),
    'GET /api/auth/sessions': operation({
      tags: ['auth'],
      summary:
        'The own sessions still in force (device, address, sign-in, last call), the current one marked',
      admin: true,
      before: signedIn,
      responses: { 200: ok(ownSessionsResponse), 401: UNAUTHORIZED, 403: FORBIDDEN },
      handle: async ({ res }, { accounts }) => ({
        sessions: (await accounts.listOwnSessions(session(res))).map(toOwnSessionJson),
      }),
    }),
    'DELETE /api/auth/sessions/{id}': operation({
      tags: ['auth'],
      summary: 'Sign out one of the own sessions: its tokens are refused everywhere from now on',
      admin: true,
      before: signedIn,
      params: sessionId,
      invalidParams: unknownSession,
      responses: {
        204: { description: 'Signed out (also when it already was)' },
        401: UNAUTHORIZED,
        403: FORBIDDEN,
        404: 'No such session of this admin',
      },
      async handle({ params, res }, { accounts }) {
        await accounts.endOwnSession(session(res), params.id);
        res.status(204).end();
      },
    }),
    'DELETE /api/auth/sessions': operation({
      tags: ['auth'],
      summary: 'Sign out everywhere: every own session ends, this one included',
      admin: true,
      before: signedIn,
      responses: { 204: { description: 'Signed out everywhere' }, 401: UNAUTHORIZED, 403: FORBIDDEN },
      async handle({ res }, { accounts }) {
        await accounts.endAllOwnSessions(session(res));
        res.status(204).end();
      },
    }),
    'POST /api/auth/change-password': operation({
      tags: ['auth'],
      summary: 'Change the own password; revokes the other sessions and returns a new token',
      admin: true,
      before: pending,
      body: changePasswordBody,
      responses: { 200: ok(sessionResponse), 400: INVALID, 401: UNAUTHORIZED },
      async handle({ body, req, res }, { accounts }) {
        const { token, admin } = await accounts.changePassword(
          session(res),
          body.currentPassword,
          body.newPassword,
          req.ip ?? 'unknown',
        );
        return { token: token.token, admin: toAdminJson(admin) };
      },
    }),
    'GET /api/admin/admins': operation({
      tags: ['admins'],
      summary: 'List admins (super admin)',
      admin: true,
      before: superAdmin,
      responses: { 200: ok(adminsResponse), 401: UNAUTHORIZED, 403: FORBIDDEN },
      handle: async (_input, { accounts }) => ({ admins: (await accounts.listAdmins()).map(toAdminJson) }),
    }),
    'POST /api/admin/admins': operation({
      tags: ['admins'],
      summary: 'Create an admin (super admin)',
      admin: true,
      before: superAdmin,
      body: createAdminBody,
      responses: {
        201: { description: 'Created', body: adminResponse },
        400: INVALID,
        401: UNAUTHORIZED,
        403: FORBIDDEN,
        409: CONFLICT,
      },
      async handle({ body, res }, { accounts }) {
        return { admin: toAdminJson(await accounts.createAdmin(session(res).admin, body)) };
      },
    }),
    'PUT /api/admin/admins/{id}': operation({
      tags: ['admins'],
      summary: 'Edit name, e-mail and role (super admin)',
      admin: true,
      before: superAdmin,
      params: adminId,
      invalidParams: unknownAdmin,
      body: updateAdminBody,
      responses: adminChanged,
      async handle({ params, body, res }, { accounts }) {
        return { admin: toAdminJson(await accounts.updateAdmin(session(res).admin, params.id, body)) };
      },
    }),
    'POST /api/admin/admins/{id}/reset-password': operation({
      tags: ['admins'],
      summary: 'Reset to a temporary password that is e-mailed to the admin (super admin)',
      admin: true,
      before: superAdmin,
      params: adminId,
      invalidParams: unknownAdmin,
      responses: { 200: ok(resetPasswordResponse), 401: UNAUTHORIZED, 403: FORBIDDEN, 404: NOT_FOUND },
      async handle({ params, res }, { accounts }) {
        const admin = await accounts.resetPassword(session(res).admin, params.id);
        return {
          message: `Password reset successfully. A temporary password has been sent to ${admin.email}`,
          admin: toAdminJson(admin),
        };
      },
    }),
    'PATCH /api/admin/admins/{id}/status': operation({
      tags: ['admins'],
      summary: 'Enable or disable an admin (super admin)',
      admin: true,
      before: superAdmin,
      params: adminId,
      invalidParams: unknownAdmin,
      body: statusBody,
      responses: adminChanged,
      async handle({ params, body, res }, { accounts }) {
        return { admin: toAdminJson(await accounts.setStatus(session(res).admin, params.id, body.status)) };
      },
    }),
    'GET /api/admin/audit-log': operation({
      tags: ['admins'],
      summary: 'Audit log of admin actions, newest first (super admin)',
      admin: true,
      before: superAdmin,
      query: auditQuery,
      responses: { 200: ok(auditResponse), 400: INVALID, 401: UNAUTHORIZED, 403: FORBIDDEN },
      async handle({ query }, { accounts }) {
        const entries = await accounts.auditLog({ ...auditFilter(query), limit: query.limit });
        return { entries: entries.map(toAuditJson) };
      },
    }),
    'GET /api/admin/audit-log/export.csv': operation({
      tags: ['admins'],
      summary: 'The filtered audit log as CSV, newest first, up to 10,000 entries (super admin)',
      admin: true,
      before: superAdmin,
      query: auditExportQuery,
      responses: {
        200: { description: 'text/csv attachment' },
        400: INVALID,
        401: UNAUTHORIZED,
        403: FORBIDDEN,
      },
      async handle({ query, res }, { accounts }) {
        const entries = await accounts.auditLog({ ...auditFilter(query), limit: AUDIT_EXPORT_MAX });
        const day = new Date().toISOString().slice(0, 10);
        res.setHeader('Content-Type', 'text/csv; charset=utf-8');
        res.setHeader('Content-Disposition', `attachment; filename="audit-log-${day}.csv"`);
        res.setHeader('X-Content-Type-Options', 'nosniff');
        // A byte-order mark, so spreadsheet programs read the names as UTF-8.
        res.end(`\uFEFF${AUDIT_CSV_HEADER}${entries.map(auditCsvLine).join('')}`);
      },
    }),
  },
});

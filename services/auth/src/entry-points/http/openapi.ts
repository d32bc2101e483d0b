import { describeService } from '@readiness/kit/openapi';
import { z } from 'zod';
import {
  adminResponse,
  adminsResponse,
  auditQuery,
  auditResponse,
  changePasswordBody,
  createAdminBody,
  jwksResponse,
  loginBody,
  resetPasswordResponse,
  sessionResponse,
  statusBody,
  tokenResponse,
  updateAdminBody,
} from './schemas';

const INVALID = 'Invalid input; `message` names the first problem';
const UNAUTHORIZED = 'Missing, invalid, expired or revoked token';
const FORBIDDEN = 'Not allowed for this admin (super admin only, or a password change is required first)';
const NOT_FOUND = 'Admin not found';
const CONFLICT = 'Conflict';

const ok = (body: z.ZodType) => ({ description: 'OK', body });
const adminId = z.object({ id: z.uuid() });
const adminChanged = {
  200: ok(adminResponse),
  400: INVALID,
  401: UNAUTHORIZED,
  403: FORBIDDEN,
  404: NOT_FOUND,
  409: CONFLICT,
};

/** The auth service's API, from the schemas its routes validate with; served at /openapi.json for the gateway. */
export const openApi = describeService({
  service: 'auth',
  tags: [
    { name: 'auth', description: 'Signing in and the own session' },
    { name: 'admins', description: 'Admin accounts and the audit log (super admin)' },
  ],
  operations: {
    'POST /api/auth/login': {
      tags: ['auth'],
      summary: 'Sign in with e-mail and password',
      body: loginBody,
      responses: {
        200: ok(sessionResponse),
        400: INVALID,
        401: 'Wrong e-mail or password',
        429: 'Too many login attempts (see Retry-After)',
      },
    },
    'GET /api/auth/me': {
      tags: ['auth'],
      summary: 'The signed-in admin',
      admin: true,
      responses: { 200: ok(adminResponse), 401: UNAUTHORIZED },
    },
    'POST /api/auth/logout': {
      tags: ['auth'],
      summary: 'Revoke the presented token',
      admin: true,
      responses: { 204: { description: 'Signed out' }, 401: UNAUTHORIZED },
    },
    'POST /api/auth/refresh': {
      tags: ['auth'],
      summary: 'A fresh token for a still-valid one',
      admin: true,
      responses: { 200: ok(tokenResponse), 401: UNAUTHORIZED, 403: FORBIDDEN },
    },
    'POST /api/auth/change-password': {
      tags: ['auth'],
      summary: 'Change the own password; revokes the other sessions and returns a new token',
      admin: true,
      body: changePasswordBody,
      responses: { 200: ok(sessionResponse), 400: INVALID, 401: UNAUTHORIZED },
    },
    'GET /api/admin/admins': {
      tags: ['admins'],
      summary: 'List admins (super admin)',
      admin: true,
      responses: { 200: ok(adminsResponse), 401: UNAUTHORIZED, 403: FORBIDDEN },
    },
    'POST /api/admin/admins': {
      tags: ['admins'],
      summary: 'Create an admin (super admin)',
      admin: true,
      body: createAdminBody,
      responses: {
        201: { description: 'Created', body: adminResponse },
        400: INVALID,
        401: UNAUTHORIZED,
        403: FORBIDDEN,
        409: CONFLICT,
      },
    },
    'PUT /api/admin/admins/{id}': {
      tags: ['admins'],
      summary: 'Edit name, e-mail and role (super admin)',
      admin: true,
      params: adminId,
      body: updateAdminBody,
      responses: adminChanged,
    },
    'POST /api/admin/admins/{id}/reset-password': {
      tags: ['admins'],
      summary: 'Reset to a temporary password that is e-mailed to the admin (super admin)',
      admin: true,
      params: adminId,
      responses: { 200: ok(resetPasswordResponse), 401: UNAUTHORIZED, 403: FORBIDDEN, 404: NOT_FOUND },
    },
    'PATCH /api/admin/admins/{id}/status': {
      tags: ['admins'],
      summary: 'Enable or disable an admin (super admin)',
      admin: true,
      params: adminId,
      body: statusBody,
      responses: adminChanged,
    },
    'GET /api/admin/audit-log': {
      tags: ['admins'],
      summary: 'Audit log of admin actions, newest first (super admin)',
      admin: true,
      query: auditQuery,
      responses: { 200: ok(auditResponse), 400: INVALID, 401: UNAUTHORIZED, 403: FORBIDDEN },
    },
    'GET /.well-known/jwks.json': {
      tags: ['auth'],
      summary: 'Public keys that verify admin tokens',
      responses: { 200: ok(jwksResponse) },
    },
    'GET /api/auth/jwks.json': {
      tags: ['auth'],
      summary: 'The same public keys under the API prefix',
      responses: { 200: ok(jwksResponse) },
    },
  },
});

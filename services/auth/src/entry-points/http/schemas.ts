import { textField } from '@readiness/kit/http';
import { z } from 'zod';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../../domain/common-passwords';
import { MAX_PASSWORD_BYTES, MIN_PASSWORD_LENGTH, passwordBytes } from '../../domain/passwords';

/** The spec's "simple e-mail pattern": something, an @, something, a dot, something; no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailField = textField({ label: 'Email' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Invalid email address')
  .regex(EMAIL_PATTERN, 'Invalid email address')
  // Stored lower-cased: e-mail addresses are unique regardless of case.
  .transform((v) => v.toLowerCase());

const passwordField = (requiredMessage: string) =>
  textField({ label: 'Password', requiredMessage })
    .min(1, requiredMessage)
    .min(MIN_PASSWORD_LENGTH, 'Password must be at least 6 characters')
    .refine((v) => passwordBytes(v) <= MAX_PASSWORD_BYTES, 'Password must be at most 72 bytes');

/** A password being set (created or changed), as opposed to one being checked at login. */
const newPasswordField = (requiredMessage: string) =>
  passwordField(requiredMessage).refine((v) => !isCommonPassword(v), COMMON_PASSWORD_MESSAGE);

export const nameField = textField({ label: 'Name' })
  .trim()
  .min(1, 'Name is required')
  .min(2, 'Name must be at least 2 characters')
  .max(100, 'Name must be at most 100 characters');

export const roleField = z.enum(['admin', 'super_admin'], { error: 'Role is required' });
export const statusField = z.enum(['active', 'disabled'], { error: "Status must be 'active' or 'disabled'" });

const body = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape, { error: 'Request body must be a JSON object' });

export const loginBody = body({ email: emailField, password: passwordField('Password is required') });
export const changePasswordBody = body({
  currentPassword: textField({ label: 'Password', requiredMessage: 'Current password is required' }).min(
    1,
    'Current password is required',
  ),
  newPassword: newPasswordField('New password is required'),
});
export const createAdminBody = body({
  name: nameField,
  email: emailField,
  password: newPasswordField('Password is required'),
  role: roleField,
});
export const updateAdminBody = body({ name: nameField, email: emailField, role: roleField });
export const statusBody = body({ status: statusField });
export const auditQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 200')
    .max(200, 'limit must be between 1 and 200')
    .default(50),
  before: z.iso.datetime({ offset: true, error: 'before must be an ISO date-time' }).optional(),
});

export const adminJson = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(['admin', 'super_admin']),
  status: z.enum(['active', 'disabled']),
  lastLogin: z.string().nullable(),
  createdAt: z.string(),
  mustChangePassword: z.boolean(),
});
const personJson = z.object({ _id: z.string(), name: z.string(), email: z.string() });
export const auditEntryJson = z.object({
  _id: z.string(),
  actor: personJson.nullable(),
  action: z.string(),
  target: personJson.nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});

export const errorJson = z.object({ message: z.string(), code: z.string() });
export const sessionResponse = z.object({ token: z.string(), admin: adminJson });
export const adminResponse = z.object({ admin: adminJson });
export const adminsResponse = z.object({ admins: z.array(adminJson) });
export const tokenResponse = z.object({ token: z.string() });
export const resetPasswordResponse = z.object({ message: z.string(), admin: adminJson });
export const auditResponse = z.object({ entries: z.array(auditEntryJson) });
export const jwksResponse = z.object({
  keys: z.array(
    z.object({
      kty: z.string(),
      n: z.string(),
      e: z.string(),
      kid: z.string(),
      use: z.string(),
      alg: z.string(),
    }),
  ),
});

const json = (schema: z.ZodType, io: 'input' | 'output' = 'output') => ({
  'application/json': { schema: z.toJSONSchema(schema, { io, unrepresentable: 'any' }) },
});
const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [String(s), { description: ERROR_TEXT[s] ?? 'Error', content: json(errorJson) }]),
  );
const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input; `message` names the first problem',
  401: 'Missing, invalid, expired or revoked token',
  403: 'Not allowed for this admin (super admin only, or a password change is required first)',
  404: 'Admin not found',
  409: 'Conflict',
  429: 'Too many login attempts (see Retry-After)',
};
const bearer = [{ bearerAuth: [] }];
const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }];
const ok = (schema: z.ZodType, description = 'OK') => ({ description, content: json(schema) });

/**
 * OpenAPI paths of the auth service, generated from the same zod schemas the routes validate with. The
 * gateway merges them into the product's API document.
 */
export const openapi = {
  components: {
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
  },
  paths: {
    '/api/auth/login': {
      post: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        requestBody: { required: true, content: json(loginBody, 'input') },
        responses: { '200': ok(sessionResponse), ...errors(400, 401, 429) },
      },
    },
    '/api/auth/me': {
      get: {
        tags: ['auth'],
        summary: 'The signed-in admin',
        security: bearer,
        responses: { '200': ok(adminResponse), ...errors(401) },
      },
    },
    '/api/auth/logout': {
      post: {
        tags: ['auth'],
        summary: 'End the session: the presented token and every token renewed from it are refused',
        security: bearer,
        responses: { '204': { description: 'Signed out' }, ...errors(401) },
      },
    },
    '/api/auth/refresh': {
      post: {
        tags: ['auth'],
        summary: 'A fresh token for a still-valid one, in the same session',
        security: bearer,
        responses: { '200': ok(tokenResponse), ...errors(401, 403) },
      },
    },
    '/api/auth/change-password': {
      post: {
        tags: ['auth'],
        summary: 'Change the own password; revokes the other sessions and returns a new token',
        security: bearer,
        requestBody: { required: true, content: json(changePasswordBody, 'input') },
        responses: { '200': ok(sessionResponse), ...errors(400, 401) },
      },
    },
    '/api/admin/admins': {
      get: {
        tags: ['admins'],
        summary: 'List admins (super admin)',
        security: bearer,
        responses: { '200': ok(adminsResponse), ...errors(401, 403) },
      },
      post: {
        tags: ['admins'],
        summary: 'Create an admin (super admin)',
        security: bearer,
        requestBody: { required: true, content: json(createAdminBody, 'input') },
        responses: { '201': ok(adminResponse, 'Created'), ...errors(400, 401, 403, 409) },
      },
    },
    '/api/admin/admins/{id}': {
      put: {
        tags: ['admins'],
        summary: 'Edit name, e-mail and role (super admin)',
        security: bearer,
        parameters: idParam,
        requestBody: { required: true, content: json(updateAdminBody, 'input') },
        responses: { '200': ok(adminResponse), ...errors(400, 401, 403, 404, 409) },
      },
    },
    '/api/admin/admins/{id}/reset-password': {
      post: {
        tags: ['admins'],
        summary: 'Reset to a temporary password that is e-mailed to the admin (super admin)',
        security: bearer,
        parameters: idParam,
        responses: { '200': ok(resetPasswordResponse), ...errors(401, 403, 404) },
      },
    },
    '/api/admin/admins/{id}/status': {
      patch: {
        tags: ['admins'],
        summary: 'Enable or disable an admin (super admin)',
        security: bearer,
        parameters: idParam,
        requestBody: { required: true, content: json(statusBody, 'input') },
        responses: { '200': ok(adminResponse), ...errors(400, 401, 403, 404, 409) },
      },
    },
    '/api/admin/audit-log': {
      get: {
        tags: ['admins'],
        summary: 'Audit log of admin actions, newest first (super admin)',
        security: bearer,
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
          { name: 'before', in: 'query', schema: { type: 'string', format: 'date-time' } },
        ],
        responses: { '200': ok(auditResponse), ...errors(400, 401, 403) },
      },
    },
    '/.well-known/jwks.json': {
      get: {
        tags: ['auth'],
        summary: 'Public keys that verify admin tokens',
        responses: { '200': ok(jwksResponse) },
      },
    },
  },
};

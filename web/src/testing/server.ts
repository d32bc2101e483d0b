import { setupServer } from 'msw/node';
import type { Admin } from '../features/auth/api/types';
import type { LtiPlatform } from '../features/lti/api/lti-api';
import { answer, refusal } from './answer';
import { http } from './openapi-http';
import { disabledAdmin, makeToken, regularAdmin, superAdmin } from './fixtures';

/** Auth refuses the 10,000 most common passwords; a few of them are enough here. */
const COMMON_PASSWORDS = ['password', 'password1', 'qwerty123'];
export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Please choose a less predictable one.';
export const PASSWORD_UNCHANGED_MESSAGE = 'New password must be different from the current password';
export const DEMOTE_SELF_MESSAGE = 'You cannot remove your own super admin role';
export const ACCOUNT_DISABLED_MESSAGE = 'Your account is disabled. Ask a super admin to enable it.';

/*
 * An in-memory stand-in for the auth service, speaking the API contract the screens rely on:
 * sessions are real tokens checked on every call, and the admin list changes with each mutation.
 */
interface Account {
  admin: Admin;
  password: string;
}

export const db = {
  accounts: new Map<string, Account>(),
  sessions: new Map<string, string>(),
  requests: [] as { method: string; path: string; authorization: string | null }[],
  /** The integrations service's LMS connections, by id. */
  platforms: new Map<string, LtiPlatform>(),
};

export const PLATFORM_TAKEN_MESSAGE = 'This LMS (issuer and client ID) is already connected';

/** The LMS connection every test starts with. */
export const campusMoodle: LtiPlatform = {
  id: 'p-1',
  name: 'Campus Moodle',
  issuer: 'https://moodle.example.edu',
  clientId: 'readiness-tool',
  deploymentIds: ['1', '7'],
  authUrl: 'https://moodle.example.edu/mod/lti/auth.php',
  jwksUrl: 'https://moodle.example.edu/mod/lti/certs.php',
  tokenUrl: 'https://moodle.example.edu/mod/lti/token.php',
  disabled: false,
  createdAt: '2026-11-01T09:00:00.000Z',
  updatedAt: '2026-11-01T09:00:00.000Z',
};

export const PASSWORD = 'correct-horse';

export function resetDb(): void {
  db.accounts.clear();
  db.sessions.clear();
  db.requests.length = 0;
  db.platforms.clear();
  db.platforms.set(campusMoodle.id, { ...campusMoodle });
  for (const admin of [superAdmin, regularAdmin, disabledAdmin]) {
    db.accounts.set(admin._id, { admin: { ...admin }, password: PASSWORD });
  }
}

/** Opens a session for an admin and returns its token, as if they had signed in earlier. */
export function openSession(adminId: string, expiresInSeconds = 3600): string {
  const token = makeToken(adminId, expiresInSeconds);
  db.sessions.set(token, adminId);
  return token;
}

const bearer = (request: Request) => request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';

function signedInAdmin(request: Request): Account | undefined {
  const id = db.sessions.get(bearer(request));
  return id ? db.accounts.get(id) : undefined;
}

/** The integrations service's guard: a super admin, or 401/403. */
function superAdminRefusal(request: Request) {
  const account = signedInAdmin(request);
  if (!account) return unauthorized();
  if (account.admin.role !== 'super_admin') {
    return refusal(403, { message: 'Super admin access required', code: 'FORBIDDEN' });
  }
  return undefined;
}

const platformTaken = (issuer: string, clientId: string, except?: string) =>
  [...db.platforms.values()].some((p) => p.issuer === issuer && p.clientId === clientId && p.id !== except);

const unauthorized = () => refusal(401, { message: 'Authentication required', code: 'UNAUTHORIZED' });

export const handlers = [
  http.untyped.all('*/api/*', ({ request }) => {
    const url = new URL(request.url);
    db.requests.push({
      method: request.method,
      path: url.pathname,
      authorization: request.headers.get('authorization'),
    });
  }),
  http.post('/api/auth/login', async ({ request }) => {
    const { email, password } = await request.json();
    const account = [...db.accounts.values()].find((a) => a.admin.email === email);
    if (!account || account.password !== password) {
      return refusal(401, { message: 'Invalid email or password', code: 'invalid_credentials' });
    }
    // As auth: only the right password learns that the account is disabled.
    if (account.admin.status !== 'active') {
      return refusal(401, { message: ACCOUNT_DISABLED_MESSAGE, code: 'account_disabled' });
    }
    return answer('/api/auth/login', 'post', { token: openSession(account.admin._id), admin: account.admin });
  }),
  http.get('/api/auth/sign-in-options', () =>
    answer('/api/auth/sign-in-options', 'get', { singleSignOn: null, passwordSignIn: 'everyone' }),
  ),
  http.get('/api/auth/me', ({ request }) => {
    const account = signedInAdmin(request);
    return account ? answer('/api/auth/me', 'get', { admin: account.admin }) : unauthorized();
  }),
  http.post('/api/auth/logout', ({ request, response }) => {
    db.sessions.delete(bearer(request));
    return response(204).empty();
  }),
  http.post('/api/auth/refresh', ({ request }) => {
    const account = signedInAdmin(request);
    if (!account) return unauthorized();
    db.sessions.delete(bearer(request));
    return answer('/api/auth/refresh', 'post', { token: openSession(account.admin._id) });
  }),
  http.post('/api/auth/change-password', async ({ request }) => {
    const account = signedInAdmin(request);
    if (!account) return unauthorized();
    const { currentPassword, newPassword } = await request.json();
    if (currentPassword !== account.password) {
      return refusal(400, { message: 'Current password is incorrect', code: 'current_password_incorrect' });
    }
    if (newPassword === currentPassword) {
      return refusal(400, { message: PASSWORD_UNCHANGED_MESSAGE, code: 'password_unchanged' });
    }
    if (COMMON_PASSWORDS.includes(newPassword)) {
      return refusal(400, {
        message: COMMON_PASSWORD_MESSAGE,
        code: 'validation_failed',
        field: 'newPassword',
      });
    }
    account.password = newPassword;
    account.admin = { ...account.admin, mustChangePassword: false };
    db.sessions.delete(bearer(request));
    return answer('/api/auth/change-password', 'post', {
      token: openSession(account.admin._id),
      admin: account.admin,
    });
  }),
  http.get('/api/admin/admins', ({ request }) => {
    if (!signedInAdmin(request)) return unauthorized();
    return answer('/api/admin/admins', 'get', { admins: [...db.accounts.values()].map((a) => a.admin) });
  }),
  http.post('/api/admin/admins', async ({ request }) => {
    if (!signedInAdmin(request)) return unauthorized();
    const body = await request.json();
    if ([...db.accounts.values()].some((a) => a.admin.email === body.email)) {
      return refusal(409, { message: 'An admin with this email already exists', code: 'email_taken' });
    }
    const admin: Admin = {
      _id: `a-${db.accounts.size + 1}`,
      name: body.name,
      email: body.email,
      role: body.role,
      status: 'active',
      lastLogin: null,
      createdAt: new Date().toISOString(),
      mustChangePassword: true,
      mfaEnabled: false,
    };
    db.accounts.set(admin._id, { admin, password: body.password });
    return answer('/api/admin/admins', 'post', { admin }, { status: 201 });
  }),
  http.put('/api/admin/admins/{id}', async ({ request, params }) => {
    const actor = signedInAdmin(request);
    if (!actor) return unauthorized();
    const account = db.accounts.get(params.id);
    if (!account) return refusal(404, { message: 'Admin not found', code: 'NOT_FOUND' });
    const body = await request.json();
    if (account === actor && body.role !== 'super_admin') {
      return refusal(400, { message: DEMOTE_SELF_MESSAGE, code: 'cannot_demote_self' });
    }
    account.admin = { ...account.admin, ...body };
    return answer('/api/admin/admins/{id}', 'put', { admin: account.admin });
  }),
  http.post('/api/admin/admins/{id}/reset-password', ({ request, params }) => {
    if (!signedInAdmin(request)) return unauthorized();
    const account = db.accounts.get(params.id);
    if (!account) return refusal(404, { message: 'Admin not found', code: 'NOT_FOUND' });
    return answer('/api/admin/admins/{id}/reset-password', 'post', {
      message: `Password reset successfully. A temporary password has been sent to ${account.admin.email}`,
      admin: account.admin,
    });
  }),
  http.patch('/api/admin/admins/{id}/status', async ({ request, params }) => {
    if (!signedInAdmin(request)) return unauthorized();
    const account = db.accounts.get(params.id);
    if (!account) return refusal(404, { message: 'Admin not found', code: 'NOT_FOUND' });
    const { status } = await request.json();
    account.admin = { ...account.admin, status };
    return answer('/api/admin/admins/{id}/status', 'patch', { admin: account.admin });
  }),
  http.get('/api/admin/lti/platforms', ({ request }) => {
    const refused = superAdminRefusal(request);
    if (refused) return refused;
    const origin = 'https://readiness.example.edu';
    return answer('/api/admin/lti/platforms', 'get', {
      platforms: [...db.platforms.values()].sort((a, b) => a.name.localeCompare(b.name)),
      tool: {
        loginUrl: `${origin}/api/lti/login`,
        launchUrl: `${origin}/api/lti/launch`,
        jwksUrl: `${origin}/api/lti/jwks`,
      },
    });
  }),
  http.post('/api/admin/lti/platforms', async ({ request }) => {
    const refused = superAdminRefusal(request);
    if (refused) return refused;
    const body = await request.json();
    if (platformTaken(body.issuer, body.clientId)) {
      return refusal(409, { message: PLATFORM_TAKEN_MESSAGE, code: 'platform_exists' });
    }
    const now = new Date().toISOString();
    const platform: LtiPlatform = {
      ...body,
      id: `p-${db.platforms.size + 1}`,
      disabled: body.disabled ?? false,
      createdAt: now,
      updatedAt: now,
    };
    db.platforms.set(platform.id, platform);
    return answer('/api/admin/lti/platforms', 'post', { platform }, { status: 201 });
  }),
  http.put('/api/admin/lti/platforms/{id}', async ({ request, params }) => {
    const refused = superAdminRefusal(request);
    if (refused) return refused;
    const found = db.platforms.get(params.id);
    if (!found) return refusal(404, { message: 'LMS connection not found', code: 'NOT_FOUND' });
    const body = await request.json();
    if (platformTaken(body.issuer, body.clientId, found.id)) {
      return refusal(409, { message: PLATFORM_TAKEN_MESSAGE, code: 'platform_exists' });
    }
    const platform = {
      ...found,
      ...body,
      disabled: body.disabled ?? false,
      updatedAt: new Date().toISOString(),
    };
    db.platforms.set(platform.id, platform);
    return answer('/api/admin/lti/platforms/{id}', 'put', { platform });
  }),
  http.delete('/api/admin/lti/platforms/{id}', ({ request, params, response }) => {
    const refused = superAdminRefusal(request);
    if (refused) return refused;
    if (!db.platforms.delete(params.id)) {
      return refusal(404, { message: 'LMS connection not found', code: 'NOT_FOUND' });
    }
    return response(204).empty();
  }),
];

export const server = setupServer(...handlers);

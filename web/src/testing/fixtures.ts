import type { Admin } from '../features/auth/api/types';

/** A JWT-shaped token whose payload carries `sub` and `exp`, as the auth service issues. */
export function makeToken(adminId: string, expiresInSeconds = 3600): string {
  const encode = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const exp = Math.floor(Date.now() / 1000) + expiresInSeconds;
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: adminId, exp, jti: Math.random().toString(36) })}.signature`;
}

export function makeAdmin(overrides: Partial<Admin> = {}): Admin {
  return {
    _id: 'a-super',
    name: 'Grace Hopper',
    email: 'grace@example.edu',
    role: 'super_admin',
    status: 'active',
    lastLogin: '2025-03-01T09:30:00.000Z',
    createdAt: '2024-09-01T08:00:00.000Z',
    mustChangePassword: false,
    mfaEnabled: false,
    ...overrides,
  };
}

export const superAdmin = makeAdmin();
export const regularAdmin = makeAdmin({
  _id: 'a-regular',
  name: 'Alan Turing',
  email: 'alan@example.edu',
  role: 'admin',
  lastLogin: null,
});
export const disabledAdmin = makeAdmin({
  _id: 'a-disabled',
  name: 'Ada Lovelace',
  email: 'ada@example.edu',
  role: 'admin',
  status: 'disabled',
});

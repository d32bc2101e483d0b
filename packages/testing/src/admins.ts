/** What a super admin gives to create an admin (`POST /api/admin/admins`). */
export interface NewAdmin {
  name: string;
  email: string;
  password: string;
  role: string;
}

async function send<T>(base: string, method: string, route: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const answer = (text ? JSON.parse(text) : {}) as T;
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status} ${text}`);
  return answer;
}

/**
 * An admin created through the API (auth's own or the gateway's at `base`) and taken through their first sign-in
 * as a person would: a password the super admin chose must be replaced there, so the admin is created with a first
 * password, signs in, changes it to `input.password` and signs out. Afterwards `input.password` signs in with full
 * access and no session of theirs is open. Returns the admin as the create answered (`mustChangePassword` true).
 */
export async function createAdminPastFirstSignIn<A extends { _id: string } = { _id: string }>(
  base: string,
  superToken: string,
  input: NewAdmin,
): Promise<A> {
  const first = `first-${input.password}`;
  const { admin } = await send<{ admin: A }>(
    base,
    'POST',
    '/api/admin/admins',
    { ...input, password: first },
    superToken,
  );
  const signIn = await send<{ token?: string }>(base, 'POST', '/api/auth/login', {
    email: input.email,
    password: first,
  });
  if (!signIn.token)
    throw new Error(`first sign-in of ${input.email} gave no token: ${JSON.stringify(signIn)}`);
  const changed = await send<{ token: string }>(
    base,
    'POST',
    '/api/auth/change-password',
    { currentPassword: first, newPassword: input.password },
    signIn.token,
  );
  await send(base, 'POST', '/api/auth/logout', undefined, changed.token);
  // A password change revokes the admin's tokens up to the next whole second, and tokens issued before then are
  // dated at that second; a reset or disable in the same second would then miss them. Tests that sign in and then
  // revoke must not depend on that race, so the helper returns once that second has begun.
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 10));
  return admin;
}

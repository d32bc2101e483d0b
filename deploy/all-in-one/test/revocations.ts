/**
 * Tokens revoked three ways, and the probes that show them refused: on the gateway and on every service's own port
 * (each checks admin tokens itself), for the tests of what survives a restart or a Redis that lost its keys.
 */
import { randomUUID } from 'node:crypto';
import type { StackServiceName } from '../src/local-stack';
import { api, createAdminPastFirstSignIn, SEED as SUPER } from './launcher';

const PASSWORD = 'staff-password-1';

/** One admin route of each service: 401 for a refused token, anything else once the token is accepted. */
const PROBES: Record<Exclude<StackServiceName, 'gateway'>, string> = {
  auth: '/api/auth/me',
  assessment: '/api/assessment/versions',
  student: '/api/admin/students',
  results: '/api/admin/results',
  report: `/api/admin/results/${randomUUID()}/pdf`,
  notification: `/api/admin/notifications/deliveries?studentIds=${randomUUID()}`,
  integrations: '/api/admin/lti/platforms',
};
export type Upstream = keyof typeof PROBES;
export const UPSTREAMS = Object.keys(PROBES) as Upstream[];

export interface Tokens {
  live: string;
  signedOut: string;
  disabled: string;
  reset: string;
}

/** Signs in three admins and revokes each one's token a different way; the super admin's token stays live. */
export async function revokeThreeWays(base: string): Promise<Tokens> {
  const login = async (email: string, password: string) => {
    const res = await api<{ token: string }>(base, 'POST', '/api/auth/login', { body: { email, password } });
    expect(res.status).toBe(200);
    return res.body.token;
  };
  const live = await login(SUPER.email, SUPER.password);
  const staff: Record<string, { id: string; token: string }> = {};
  for (const who of ['signed-out', 'disabled', 'reset']) {
    const email = `${who}-${randomUUID().slice(0, 8)}@example.edu`;
    const created = await createAdminPastFirstSignIn(base, live, {
      name: `Staff ${who}`,
      email,
      password: PASSWORD,
      role: 'admin',
    });
    staff[who] = { id: created._id, token: await login(email, PASSWORD) };
  }
  expect(
    (await api(base, 'POST', '/api/auth/logout', { token: staff['signed-out']!.token })).status,
  ).toBeLessThan(300);
  const disabled = await api(base, 'PATCH', `/api/admin/admins/${staff['disabled']!.id}/status`, {
    token: live,
    body: { status: 'disabled' },
  });
  expect(disabled.status).toBe(200);
  const reset = await api(base, 'POST', `/api/admin/admins/${staff['reset']!.id}/reset-password`, {
    token: live,
  });
  expect(reset.status).toBe(200);
  return {
    live,
    signedOut: staff['signed-out']!.token,
    disabled: staff['disabled']!.token,
    reset: staff['reset']!.token,
  };
}

/** The status each token gets on each probe: through the gateway and on every service's own port. */
async function statuses(gateway: string, services: Record<Upstream, string>, token: string) {
  const seen: Record<string, number> = {};
  for (const name of UPSTREAMS) {
    const path = PROBES[name];
    seen[`gateway ${name}`] = (await api(gateway, 'GET', path, { token })).status;
    seen[name] = (await api(services[name], 'GET', path, { token })).status;
  }
  return seen;
}

export async function expectRefusedEverywhere(
  gateway: string,
  services: Record<Upstream, string>,
  tokens: Tokens,
): Promise<void> {
  for (const token of [tokens.signedOut, tokens.disabled, tokens.reset]) {
    const seen = await statuses(gateway, services, token);
    expect(Object.entries(seen).filter(([, status]) => status !== 401)).toEqual([]);
  }
  // The check is not a blanket refusal: the token nobody revoked still works everywhere.
  const live = await statuses(gateway, services, tokens.live);
  expect(Object.entries(live).filter(([, status]) => status === 401 || status >= 500)).toEqual([]);
}

import { randomUUID } from 'node:crypto';
import { generateEventSecretsKey } from '@readiness/kit/outbox';
import { studentService } from '@readiness/student';
import {
  startServiceUnderTest,
  startTestLms,
  testAdminToken,
  type ServiceUnderTest,
  type TestLms,
} from '@readiness/testing';
import { integrationsService, type IntegrationsConfig } from '../src';

export const PUBLIC_ORIGIN = 'https://readiness.example.edu';
export { LEARNER } from '@readiness/testing';

/** The tests' own LMS (`@readiness/testing`), launching into the tool at `PUBLIC_ORIGIN`. */
export type TestPlatform = TestLms;
export const startTestPlatform = () => startTestLms({ toolOrigin: PUBLIC_ORIGIN });

/** A student's invitation as the student service announces it (`student.student.invited.v1`). */
export const invited = (studentId: string) => ({
  studentId,
  name: 'Ada Lovelace',
  email: 'ada@example.edu',
  sealedInvitationUrl: 'sealed-secret-link',
  expiresAt: '2026-12-08T10:00:00.000Z',
  language: 'fr',
});

/** A super admin's token and a (plain) admin's, as auth signs them. */
export const superAdminToken = () => testAdminToken(randomUUID(), { role: 'super_admin' });
export const adminToken = () => testAdminToken(randomUUID());

export interface Harness {
  integrations: ServiceUnderTest<IntegrationsConfig, undefined, never>;
  student: ServiceUnderTest<unknown, unknown, never>;
  close(): Promise<void>;
}

/**
 * The integrations service and the student service in-process, sharing the key that seals launch tickets, as
 * `make start` and the chart give them one.
 */
export async function startServices(config: Record<string, unknown> = {}): Promise<Harness> {
  const EVENT_SECRETS_KEY = generateEventSecretsKey();
  const integrations = await startIntegrations({ EVENT_SECRETS_KEY, ...config });
  const student = (await startServiceUnderTest(studentService, {
    kind: 'embedded',
    config: { PUBLIC_ORIGIN, EVENT_SECRETS_KEY },
    s3: true,
  })) as unknown as Harness['student'];
  return {
    integrations,
    student,
    async close() {
      await student.close();
      await integrations.close();
    },
  };
}

/** The integrations service alone, with the harness's settings and `config` on top. */
export const startIntegrations = (config: Record<string, unknown> = {}) =>
  startServiceUnderTest(integrationsService, {
    kind: 'embedded',
    config: { PUBLIC_ORIGIN, LTI_ALLOW_HTTP_LOOPBACK: true, ...config },
  });

/**
 * A file's integrations service (`config` on top of the harness's) and test LMS, registered as `name`: started before
 * its first test, closed after its last.
 */
export function integrationsWithPlatform(config: Record<string, unknown> = {}, name = 'Test LMS') {
  const file = {} as { h: Pick<Harness, 'integrations'>; platform: TestPlatform; platformId: string };
  beforeAll(async () => {
    file.h = { integrations: await startIntegrations(config) };
    file.platform = await startTestPlatform();
    file.platformId = (await register(file.h, file.platform, { name })).id;
  });
  afterAll(async () => {
    await file.h?.integrations.close();
    await file.platform?.close();
  });
  return file;
}

/** Registers the test platform through the API, as a super admin would. */
export async function register(
  h: Pick<Harness, 'integrations'>,
  p: TestPlatform,
  overrides: Record<string, unknown> = {},
) {
  const res = await h.integrations.call('POST', '/api/admin/lti/platforms', {
    token: superAdminToken(),
    body: {
      name: 'Test LMS',
      issuer: p.issuer,
      clientId: p.clientId,
      deploymentIds: [p.deploymentId],
      authUrl: p.authUrl,
      jwksUrl: p.jwksUrl,
      tokenUrl: p.tokenUrl,
      ...overrides,
    },
  });
  if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { platform: { id: string } }).platform;
}

/** Disables or enables a registration through the API, as a super admin would; its other fields as they are. */
export async function setDisabled(h: Pick<Harness, 'integrations'>, platformId: string, disabled: boolean) {
  const token = superAdminToken();
  const listed = await h.integrations.call('GET', '/api/admin/lti/platforms', { token });
  const { platforms } = (await listed.json()) as { platforms: Array<Record<string, unknown>> };
  const {
    id: _id,
    createdAt: _created,
    updatedAt: _updated,
    ...body
  } = platforms.find((p) => p.id === platformId)!;
  const res = await h.integrations.call('PUT', `/api/admin/lti/platforms/${platformId}`, {
    token,
    body: { ...body, disabled },
  });
  if (res.status !== 200) throw new Error(`disabling answered ${res.status}: ${await res.text()}`);
}

/** Step one, as the LMS's browser makes it: the state and nonce from the redirect, and the state cookie. */
export async function login(
  h: Pick<Harness, 'integrations'>,
  p: TestPlatform,
  overrides: Record<string, string> = {},
) {
  const query = new URLSearchParams({
    iss: p.issuer,
    login_hint: 'user-hint',
    target_link_uri: `${PUBLIC_ORIGIN}/api/lti/launch`,
    client_id: p.clientId,
    lti_deployment_id: p.deploymentId,
    lti_message_hint: 'message-hint',
    ...overrides,
  });
  const res = await fetch(`${h.integrations.url}/api/lti/login?${query}`, { redirect: 'manual' });
  const location = res.headers.get('location');
  const redirect = location ? new URL(location) : undefined;
  const setCookie = res.headers.get('set-cookie') ?? '';
  return {
    res,
    redirect,
    state: redirect?.searchParams.get('state') ?? '',
    nonce: redirect?.searchParams.get('nonce') ?? '',
    setCookie,
    cookie: setCookie.split(';')[0] ?? '',
  };
}

/** Step two: the LMS's form post of the id_token and state, with the browser's cookie (or another one). */
export async function launch(
  h: Pick<Harness, 'integrations'>,
  form: { id_token: string; state: string },
  cookie?: string,
) {
  return fetch(`${h.integrations.url}/api/lti/launch`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(form).toString(),
  });
}

/** The browser following the launch's 303 to the student service; its answer's Location is the student's page. */
export async function followTicket(h: Harness, location: string) {
  const at = new URL(location);
  return fetch(`${h.student.url}${at.pathname}${at.search}`, { redirect: 'manual' });
}

/** A whole learner launch, login to the student's page; the answers of each step. */
export async function completeLaunch(
  h: Harness,
  p: TestPlatform,
  sub: string,
  claims: Record<string, unknown> = {},
) {
  const started = await login(h, p);
  const idToken = await p.idToken({ sub, nonce: started.nonce, ...claims });
  const launched = await launch(h, { id_token: idToken, state: started.state }, started.cookie);
  const ticket = await followTicket(h, launched.headers.get('location') ?? `${PUBLIC_ORIGIN}/none`);
  return { started, idToken, launched, ticket };
}

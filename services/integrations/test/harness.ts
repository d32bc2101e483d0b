import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateEventSecretsKey } from '@readiness/kit/outbox';
import { studentService } from '@readiness/student';
import { startServiceUnderTest, testAdminToken, type ServiceUnderTest } from '@readiness/testing';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { integrationsService, type IntegrationsConfig } from '../src';

export const PUBLIC_ORIGIN = 'https://readiness.example.edu';
const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
export const LEARNER = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner';

/** A super admin's token and a (plain) admin's, as auth signs them. */
export const superAdminToken = () => testAdminToken(randomUUID(), { role: 'super_admin' });
export const adminToken = () => testAdminToken(randomUUID());

/**
 * The tests' own LMS: an issuer with its RS256 key, its key set served over HTTP, and id_tokens signed the way a
 * platform signs them. `otherKey` is a key it never published.
 */
export interface TestPlatform {
  issuer: string;
  clientId: string;
  deploymentId: string;
  jwksUrl: string;
  authUrl: string;
  idToken(
    claims: Record<string, unknown>,
    options?: { key?: 'own' | 'other'; audience?: string | string[]; expiresIn?: number; iat?: number },
  ): Promise<string>;
  close(): Promise<void>;
}

export async function startTestPlatform(): Promise<TestPlatform> {
  const own = await generateKeyPair('RS256');
  const other = await generateKeyPair('RS256');
  const kid = randomUUID();
  const jwk: JWK = { ...(await exportJWK(own.publicKey)), kid, alg: 'RS256', use: 'sig' };
  const server: Server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `https://lms-${randomUUID().slice(0, 8)}.example.edu`;
  const clientId = `client-${randomUUID().slice(0, 8)}`;
  return {
    issuer,
    clientId,
    deploymentId: 'deployment-1',
    jwksUrl: `${base}/jwks`,
    authUrl: `${base}/auth`,
    async idToken(claims, options = {}) {
      const iat = options.iat ?? Math.floor(Date.now() / 1000);
      return new SignJWT({
        [`${CLAIM}deployment_id`]: 'deployment-1',
        [`${CLAIM}version`]: '1.3.0',
        [`${CLAIM}message_type`]: 'LtiResourceLinkRequest',
        [`${CLAIM}roles`]: [LEARNER],
        [`${CLAIM}resource_link`]: { id: 'link-1', title: 'Readiness check' },
        [`${CLAIM}target_link_uri`]: `${PUBLIC_ORIGIN}/api/lti/launch`,
        ...claims,
      })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(issuer)
        .setAudience(options.audience ?? clientId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + (options.expiresIn ?? 300))
        .sign(options.key === 'other' ? other.privateKey : own.privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Harness {
  integrations: ServiceUnderTest<IntegrationsConfig, undefined, never>;
  student: ServiceUnderTest<unknown, unknown, never>;
  close(): Promise<void>;
}

/**
 * The integrations service and the student service in-process, sharing the key that seals launch tickets, as
 * `make start` and the chart give them one.
 */
export async function startServices(): Promise<Harness> {
  const EVENT_SECRETS_KEY = generateEventSecretsKey();
  const integrations = await startIntegrations({ EVENT_SECRETS_KEY });
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
      tokenUrl: `${p.authUrl.replace(/\/auth$/, '')}/token`,
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

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateEventSecretsKey } from '@readiness/kit/outbox';
import { studentService } from '@readiness/student';
import { startServiceUnderTest, testAdminToken, type ServiceUnderTest } from '@readiness/testing';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK } from 'jose';
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
  tokenUrl: string;
  /** A line item of its gradebook (AGS): scores posted to `<lineItem>/scores` are kept in `scores`. */
  lineItem: string;
  /** The scores its gradebook took, in order, with the bearer token each came with. */
  scores: Array<{ body: Record<string, unknown>; contentType: string }>;
  /** How many access tokens it gave. */
  tokensGiven: number;
  /** Answers the next `n` score posts with `status` (503: down; 400: refused). */
  failScores(n: number, status?: number): void;
  /** The tool's key set URL: the token endpoint checks client assertions against it. */
  trustTool(jwksUrl: string): void;
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
  const issuer = `https://lms-${randomUUID().slice(0, 8)}.example.edu`;
  const clientId = `client-${randomUUID().slice(0, 8)}`;
  const scores: TestPlatform['scores'] = [];
  const tokens = new Set<string>();
  let toolKeys: ReturnType<typeof createRemoteJWKSet> | undefined;
  let failing = { n: 0, status: 503 };
  let base = '';
  const body = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => resolve(text));
    });
  const answer = (res: ServerResponse, status: number, json: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(json));
  };
  // The token endpoint takes only the client-credentials grant with a client assertion the tool signed for it.
  async function token(req: IncomingMessage, res: ServerResponse) {
    const form = new URLSearchParams(await body(req));
    try {
      if (form.get('grant_type') !== 'client_credentials') throw new Error('grant');
      if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') {
        throw new Error('assertion type');
      }
      if (!toolKeys) throw new Error('no tool keys');
      await jwtVerify(form.get('client_assertion') ?? '', toolKeys, {
        issuer: clientId,
        subject: clientId,
        audience: `${base}/token`,
      });
      const accessToken = randomUUID();
      tokens.add(accessToken);
      answer(res, 200, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 3600,
        scope: form.get('scope'),
      });
    } catch {
      answer(res, 401, { error: 'invalid_client' });
    }
  }
  async function score(req: IncomingMessage, res: ServerResponse) {
    const text = await body(req);
    if (!tokens.has((req.headers.authorization ?? '').replace(/^Bearer /, ''))) return answer(res, 401, {});
    if (failing.n > 0) {
      failing.n--;
      return answer(res, failing.status, {
        error: failing.status === 503 ? 'down for maintenance' : 'refused',
      });
    }
    scores.push({
      body: JSON.parse(text) as Record<string, unknown>,
      contentType: req.headers['content-type'] ?? '',
    });
    answer(res, 200, {});
  }
  const server: Server = createServer((req, res) => {
    const at = new URL(req.url ?? '/', base);
    if (req.method === 'POST' && at.pathname === '/token') return void token(req, res);
    if (req.method === 'POST' && at.pathname === '/lineitems/1/scores') return void score(req, res);
    answer(res, 200, { keys: [jwk] });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    clientId,
    deploymentId: 'deployment-1',
    jwksUrl: `${base}/jwks`,
    authUrl: `${base}/auth`,
    tokenUrl: `${base}/token`,
    lineItem: `${base}/lineitems/1`,
    scores,
    get tokensGiven() {
      return tokens.size;
    },
    failScores(n, status = 503) {
      failing = { n, status };
    },
    trustTool(jwksUrl) {
      toolKeys = createRemoteJWKSet(new URL(jwksUrl));
    },
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
export async function startServices(config: Record<string, unknown> = {}): Promise<Harness> {
  const EVENT_SECRETS_KEY = generateEventSecretsKey();
  const integrations = await startServiceUnderTest(integrationsService, {
    kind: 'embedded',
    config: { PUBLIC_ORIGIN, LTI_ALLOW_HTTP_LOOPBACK: true, EVENT_SECRETS_KEY, ...config },
  });
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

/** Registers the test platform through the API, as a super admin would. */
export async function register(h: Harness, p: TestPlatform, overrides: Record<string, unknown> = {}) {
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

/** Step one, as the LMS's browser makes it: the state and nonce from the redirect, and the state cookie. */
export async function login(h: Harness, p: TestPlatform, overrides: Record<string, string> = {}) {
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
export async function launch(h: Harness, form: { id_token: string; state: string }, cookie?: string) {
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

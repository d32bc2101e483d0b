import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK } from 'jose';

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
export const LEARNER = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner';

/**
 * The tests' own LMS (an LTI 1.3 platform): an issuer with its RS256 key, its key set served over HTTP, id_tokens
 * signed the way a platform signs them (or with `other`, a key it never published), a token endpoint that gives
 * access tokens only for a client assertion the tool signed (checked against the tool's key set, `trustTool`), and
 * a gradebook line item that keeps the scores posted to it (AGS), which can be made to fail for a while.
 */
export interface TestLms {
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
  /**
   * LTI Dynamic Registration: its OpenID configuration (issuer: its own address) and the registrations the tool
   * sent to its registration endpoint, which takes the bearer token `registrationToken`.
   */
  openidConfiguration: string;
  registrationToken: string;
  registrations: Array<Record<string, unknown>>;
  idToken(
    claims: Record<string, unknown>,
    options?: { key?: 'own' | 'other'; audience?: string | string[]; expiresIn?: number; iat?: number },
  ): Promise<string>;
  close(): Promise<void>;
}

export async function startTestLms(lms: { toolOrigin: string }): Promise<TestLms> {
  const own = await generateKeyPair('RS256');
  const other = await generateKeyPair('RS256');
  const kid = randomUUID();
  const jwk: JWK = { ...(await exportJWK(own.publicKey)), kid, alg: 'RS256', use: 'sig' };
  const issuer = `https://lms-${randomUUID().slice(0, 8)}.example.edu`;
  const clientId = `client-${randomUUID().slice(0, 8)}`;
  const scores: TestLms['scores'] = [];
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
  const registrations: TestLms['registrations'] = [];
  const registrationToken = randomUUID();
  async function register(req: IncomingMessage, res: ServerResponse) {
    const text = await body(req);
    if (req.headers.authorization !== `Bearer ${registrationToken}`) return answer(res, 401, {});
    registrations.push(JSON.parse(text) as Record<string, unknown>);
    answer(res, 201, {
      client_id: `dynamic-${registrations.length}-${clientId}`,
      'https://purl.imsglobal.org/spec/lti-tool-configuration': { deployment_id: 'dynamic-deployment' },
    });
  }
  const openidConfiguration = () => ({
    issuer: base,
    authorization_endpoint: `${base}/auth`,
    token_endpoint: `${base}/token`,
    jwks_uri: `${base}/jwks`,
    registration_endpoint: `${base}/register`,
    'https://purl.imsglobal.org/spec/lti-platform-configuration': {
      product_family_code: 'moodle',
      version: '4.5',
      messages_supported: [{ type: 'LtiResourceLinkRequest' }, { type: 'LtiDeepLinkingRequest' }],
    },
  });
  const server: Server = createServer((req, res) => {
    const at = new URL(req.url ?? '/', base);
    if (at.pathname === '/.well-known/openid-configuration') return answer(res, 200, openidConfiguration());
    if (req.method === 'POST' && at.pathname === '/register') return void register(req, res);
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
    get openidConfiguration() {
      return `${base}/.well-known/openid-configuration`;
    },
    registrationToken,
    registrations,
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
        [`${CLAIM}target_link_uri`]: `${lms.toolOrigin}/api/lti/launch`,
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

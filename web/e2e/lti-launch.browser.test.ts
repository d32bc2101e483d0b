/*
 * A learner's LTI 1.3 launch inside the LMS's iframe, in a real browser: a course page of the test's own LMS, on
 * another site (http://127.0.0.1:<its port>) than the product's public origin (http://localhost:<port>), frames the
 * tool's login initiation; the LMS's authorization endpoint answers with a signed id_token by form post; the launch
 * and the student service's ticket lead to the student's welcome page, still inside the iframe.
 *
 * What it proves besides the protocol: the state cookie is kept in a cross-site iframe (Chromium refuses a cookie
 * set there unless it is `SameSite=None; Secure; Partitioned`, and takes `Secure` over http on localhost), and the
 * gateway lets the LMS frame the student's page (LTI_FRAME_ANCESTORS of the shared product, LTI_TEST_ENV).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { LTI_TEST_ENV, sharedHandles } from './shared-product';
import { api, productForFile, shown, startProductAndBrowser } from './support';

jest.setTimeout(120_000);

// Alone (READINESS_E2E_SHARED=off) the file starts a product with the shared one's LTI settings.
const file = productForFile(() => startProductAndBrowser(sharedHandles() ? {} : LTI_TEST_ENV));

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';

/** The test's LMS: a course page framing the tool, its key set, and an authorization endpoint that posts back. */
async function startLms(tool: string, clientId: string, learner: { sub: string; name: string }) {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const kid = randomUUID();
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] };
  let issuer = '';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/jwks') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(jwks));
      return;
    }
    res.setHeader('content-type', 'text/html');
    if (url.pathname === '/course') {
      const login = new URL('/api/lti/login', tool);
      login.search = new URLSearchParams({
        iss: issuer,
        login_hint: learner.sub,
        target_link_uri: `${tool}/api/lti/launch`,
        client_id: clientId,
        lti_deployment_id: 'e2e-deployment',
      }).toString();
      res.end(
        `<!doctype html><title>Course</title><h1>Course</h1><iframe title="Readiness" src="${login}" width="1000" height="700"></iframe>`,
      );
      return;
    }
    if (url.pathname === '/auth') {
      const q = url.searchParams;
      void new SignJWT({
        nonce: q.get('nonce'),
        name: learner.name,
        [`${CLAIM}deployment_id`]: 'e2e-deployment',
        [`${CLAIM}version`]: '1.3.0',
        [`${CLAIM}message_type`]: 'LtiResourceLinkRequest',
        [`${CLAIM}roles`]: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'],
        [`${CLAIM}resource_link`]: { id: 'e2e-link' },
        [`${CLAIM}target_link_uri`]: `${tool}/api/lti/launch`,
      })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setSubject(q.get('login_hint') ?? '')
        .setIssuer(issuer)
        .setAudience(clientId)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey)
        .then((idToken) =>
          res.end(
            `<!doctype html><form method="post" action="${q.get('redirect_uri')}">` +
              `<input type="hidden" name="id_token" value="${idToken}"><input type="hidden" name="state" value="${q.get('state')}">` +
              '</form><script>document.forms[0].submit()</script>',
          ),
        );
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test('when a learner opens the activity in the LMS’s iframe, then login, the LMS’s form post and the launch end on their welcome page inside it', async () => {
  const tool = `http://localhost:${new URL(file.url).port}`;
  const clientId = `e2e-${randomUUID().slice(0, 8)}`;
  const lms = await startLms(tool, clientId, { sub: `framed-${randomUUID()}`, name: 'Iris Framed' });
  const token = await file.superToken();
  const registered = await api<{ platform: { id: string } }>(file.url, 'POST', '/api/admin/lti/platforms', {
    token,
    body: {
      name: 'E2E LMS',
      issuer: lms.issuer,
      clientId,
      deploymentIds: ['e2e-deployment'],
      authUrl: `${lms.issuer}/auth`,
      jwksUrl: `${lms.issuer}/jwks`,
      tokenUrl: `${lms.issuer}/token`,
    },
  });
  expect(registered.status).toBe(201);
  try {
    const page = await file.page();
    await page.goto(`${lms.issuer}/course`);
    const framed = page.frameLocator('iframe[title="Readiness"]');
    await shown(framed.getByRole('heading', { level: 1, name: 'Distance Education Readiness Assessment' }));
    const toolFrame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(toolFrame.url()).toMatch(new RegExp(`^${tool}/assessment/[\\w-]+$`));
    expect(page.url()).toBe(`${lms.issuer}/course`);
  } finally {
    await api(file.url, 'DELETE', `/api/admin/lti/platforms/${registered.body.platform.id}`, { token });
    await lms.close();
  }
});

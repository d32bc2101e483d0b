/*
 * LTI 1.3 launches inside the LMS's iframe, in a real browser: a course page of the test's own LMS, on another site
 * (http://127.0.0.1:<its port>) than the product's public origin (http://localhost:<port>), frames the tool's login
 * initiation; the LMS's authorization endpoint answers with a signed id_token by form post. A learner's launch and
 * the student service's ticket lead to the student's welcome page, still inside the iframe; an instructor's
 * deep-linking launch shows the confirmation page, whose signed answer its script posts back to the LMS.
 *
 * What it proves besides the protocol: the state cookie is kept in a cross-site iframe (Chromium refuses a cookie
 * set there unless it is `SameSite=None; Secure; Partitioned`, and takes `Secure` over http on localhost), and the
 * gateway lets the LMS frame the student's page (LTI_FRAME_ANCESTORS of the shared product, LTI_TEST_ENV).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator } from 'playwright-core';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { LTI_TEST_ENV, sharedHandles } from './shared-product';
import {
  api,
  expectAccessible,
  productForFile,
  saveScreenshot,
  shown,
  startProductAndBrowser,
} from './support';

jest.setTimeout(120_000);

// Before the product's own (jest runs afterAll hooks in the order they are declared): the connection goes while
// the product still answers, so the installation is left as the file found it.
afterAll(async () => {
  try {
    if (platformId) await api(file.url, 'DELETE', `/api/admin/lti/platforms/${platformId}`, { token });
  } finally {
    await lms?.close();
  }
});

// Alone (READINESS_E2E_SHARED=off) the file starts a product with the shared one's LTI settings.
const file = productForFile(() => startProductAndBrowser(sharedHandles() ? {} : LTI_TEST_ENV));

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
const MEMBERSHIP = 'http://purl.imsglobal.org/vocab/lis/v2/membership#';

/** What the LMS's id_token says of each kind of launch: a learner's, or an instructor's deep linking. */
const launchClaims = (as: string, issuer: string): JWTPayload =>
  as === 'instructor'
    ? {
        [`${CLAIM}message_type`]: 'LtiDeepLinkingRequest',
        [`${CLAIM}roles`]: [`${MEMBERSHIP}Instructor`],
        'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings': {
          deep_link_return_url: `${issuer}/return`,
          accept_types: ['ltiResourceLink'],
          data: 'course-7',
        },
      }
    : {
        [`${CLAIM}message_type`]: 'LtiResourceLinkRequest',
        [`${CLAIM}roles`]: [`${MEMBERSHIP}Learner`],
        [`${CLAIM}resource_link`]: { id: 'e2e-link' },
      };

/**
 * The test's LMS: a course page framing the tool (`/course?as=learner|instructor`), its key set, an authorization
 * endpoint that posts the id_token back, and the deep-linking return address, which keeps what it is sent.
 */
async function startLms(tool: string, clientId: string, name: string) {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const kid = randomUUID();
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] };
  const returned: string[] = [];
  let issuer = '';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/return') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        returned.push(new URLSearchParams(body).get('JWT') ?? '');
        res.setHeader('content-type', 'text/html');
        res.end('<!doctype html><title>Added</title><h1>Activity added</h1>');
      });
      return;
    }
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
        login_hint: url.searchParams.get('as') ?? 'learner',
        target_link_uri: `${tool}/api/lti/launch`,
        client_id: clientId,
        lti_deployment_id: 'e2e-deployment',
      }).toString();
      res.end(
        `<!doctype html><title>Study Skills 101</title><h1>Study Skills 101</h1><iframe title="Readiness" src="${login}" width="1000" height="700"></iframe>`,
      );
      return;
    }
    if (url.pathname === '/auth') {
      const q = url.searchParams;
      void new SignJWT({
        nonce: q.get('nonce'),
        name,
        [`${CLAIM}deployment_id`]: 'e2e-deployment',
        [`${CLAIM}version`]: '1.3.0',
        [`${CLAIM}target_link_uri`]: `${tool}/api/lti/launch`,
        ...launchClaims(q.get('login_hint') ?? '', issuer),
      })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setSubject(`${q.get('login_hint')}-${clientId}`)
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
  return { issuer, returned, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let tool: string;
let lms: Awaited<ReturnType<typeof startLms>>;
let token: string;
let platformId: string;

beforeAll(async () => {
  tool = `http://localhost:${new URL(file.url).port}`;
  const clientId = `e2e-${randomUUID().slice(0, 8)}`;
  lms = await startLms(tool, clientId, 'Iris Framed');
  token = await file.superToken();
  const registered = await api<{ platform: { id: string } }>(file.url, 'POST', '/api/admin/lti/platforms', {
    token,
    body: {
      name: 'Campus LMS',
      issuer: lms.issuer,
      clientId,
      deploymentIds: ['e2e-deployment'],
      authUrl: `${lms.issuer}/auth`,
      jwksUrl: `${lms.issuer}/jwks`,
      tokenUrl: `${lms.issuer}/token`,
    },
  });
  expect(registered.status).toBe(201);
  platformId = registered.body.platform.id;
});

/**
 * The LMS's course page as `as` sees it, and `inFrame`, which waits for an element of the tool's iframe. A frame the
 * browser blocks shows no text, so a failure lists what the iframe's requests were answered, with their
 * frame-ancestors.
 */
async function openCourse(as: 'learner' | 'instructor') {
  const page = await file.page();
  const answers: string[] = [];
  page.on('response', (r) => {
    if (r.frame() === page.mainFrame()) return;
    const policy = /frame-ancestors[^;]*/.exec(r.headers()['content-security-policy'] ?? '')?.[0];
    answers.push(`${r.status()} ${r.url().slice(0, 100)} (${policy ?? 'no frame-ancestors'})`);
  });
  await page.goto(`${lms.issuer}/course?as=${as}`);
  const framed = page.frameLocator('iframe[title="Readiness"]');
  const inFrame = (locator: Locator) =>
    shown(locator).catch((err: Error) => {
      throw new Error(`${err.message}\nThe iframe's requests were answered:\n${answers.join('\n')}`);
    });
  return { page, framed, inFrame };
}

test('when a learner opens the activity in the LMS’s iframe, then login, the LMS’s form post and the launch end on their welcome page inside it, and their result shows there', async () => {
  const { page, framed, inFrame } = await openCourse('learner');
  await inFrame(framed.getByRole('heading', { level: 1, name: 'Distance Education Readiness Assessment' }));
  const toolFrame = page.frames().find((f) => f !== page.mainFrame())!;
  expect(toolFrame.url()).toMatch(new RegExp(`^${tool}/assessment/[\\w-]+$`));
  expect(page.url()).toBe(`${lms.issuer}/course?as=learner`);

  // Through to the result, in the frame: the attempt is started and handed in (its answers through the student's
  // own API, whichever assessment is active), and the page, opened again in the frame, shows the result (passed:
  // the result page; not passed, with a retake left: the welcome page with the Previous Attempt).
  const link = `/api/student/${toolFrame.url().split('/').pop()}`;
  const paper = await api<{
    assessment: { questions: Array<{ id: string; type: string; options: Array<{ id: string }> }> };
  }>(file.url, 'GET', `${link}/assessment`);
  const started = await api<{ attempt: { id: string } }>(file.url, 'POST', `${link}/start`);
  expect(started.status).toBe(201);
  const answers = paper.body.assessment.questions
    .filter((q) => q.type !== 'file_upload')
    .map((q) => ({ questionId: q.id, answer: q.type === 'yes_no' ? 'yes' : q.options[0]!.id }));
  const submitted = await api(file.url, 'POST', `${link}/submit`, {
    body: { attemptId: started.body.attempt.id, answers, timeSpent: 1, startedAt: new Date().toISOString() },
  });
  expect([200, 202]).toContain(submitted.status);
  await toolFrame.goto(toolFrame.url());
  await inFrame(framed.getByText(/^(Congratulations!|Assessment Complete|Previous Attempt)$/).first());
});

test('when an instructor adds the activity from the LMS’s iframe and confirms, then its script posts the signed answer back to the LMS', async () => {
  const { page, framed, inFrame } = await openCourse('instructor');
  await inFrame(framed.getByRole('heading', { level: 1, name: 'Add the assessment to your course' }));
  await saveScreenshot(page, 'lti-deep-linking', 'desktop');
  const confirmation = await page
    .frames()
    .find((f) => f !== page.mainFrame())!
    .content();
  const alone = await file.page();
  await alone.setContent(confirmation);
  await expectAccessible(alone, 'the deep-linking confirmation');

  await framed.getByRole('button', { name: 'Add the assessment' }).click();
  await inFrame(framed.getByRole('heading', { name: 'Activity added' }));
  expect(lms.returned).toHaveLength(1);
  expect(decodeJwt(lms.returned[0]!)).toMatchObject({
    'https://purl.imsglobal.org/spec/lti-dl/claim/data': 'course-7',
    'https://purl.imsglobal.org/spec/lti-dl/claim/content_items': [
      { type: 'ltiResourceLink', url: `${tool}/api/lti/launch` },
    ],
  });
});

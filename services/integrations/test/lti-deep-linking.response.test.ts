import { sql } from 'drizzle-orm';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { integrationsWithPlatform, launch, LEARNER, login, PUBLIC_ORIGIN, setDisabled } from './harness';

jest.setTimeout(60_000);

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
const DL = 'https://purl.imsglobal.org/spec/lti-dl/claim/';
const INSTRUCTOR = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';
const RETURN_URL = 'https://lms-course.example.edu/deep-link/return?course=7';

const file = integrationsWithPlatform({}, 'Campus LMS');

const requests = async () =>
  (
    await file.h.integrations.database.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM lti_deep_link_requests`,
    )
  )[0]!.n;

const settings = (overrides: Record<string, unknown> = {}) => ({
  deep_link_return_url: RETURN_URL,
  accept_types: ['link', 'ltiResourceLink'],
  accept_presentation_document_targets: ['iframe', 'window'],
  data: 'opaque-platform-data',
  ...overrides,
});

/** An instructor's deep-linking launch, login then the id_token posted back; the launch's answer and its page. */
async function deepLinkingLaunch(claims: Record<string, unknown> = {}) {
  const started = await login(file.h, file.platform);
  const idToken = await file.platform.idToken({
    sub: 'instructor-1',
    nonce: started.nonce,
    [`${CLAIM}message_type`]: 'LtiDeepLinkingRequest',
    [`${CLAIM}roles`]: [INSTRUCTOR],
    [`${CLAIM}resource_link`]: undefined,
    [`${DL}deep_linking_settings`]: settings(),
    ...claims,
  });
  const res = await launch(file.h, { id_token: idToken, state: started.state }, started.cookie);
  return { started, res, page: await res.text() };
}

const field = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1];

const confirm = (fields: Record<string, string>) =>
  fetch(`${file.h.integrations.url}/api/lti/deep-linking`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

const toolKeys = async () =>
  createLocalJWKSet((await (await fetch(`${file.h.integrations.url}/api/lti/jwks`)).json()) as JSONWebKeySet);

test('when an instructor adds the activity and confirms, then the LMS gets a response signed by the tool’s published key, with the activity and its data', async () => {
  const { res, page } = await deepLinkingLaunch();
  expect(res.status).toBe(200);
  expect(page).toContain('Add the assessment to your course');
  expect(page).toContain('<strong>Readiness assessment</strong>');
  expect(page).toContain('Campus LMS');
  const framing = res.headers.get('content-security-policy') ?? '';
  expect(framing).toContain(
    `frame-ancestors 'self' ${file.platform.issuer} ${new URL(file.platform.authUrl).origin} https://lms-course.example.edu`,
  );
  expect(res.headers.get('x-frame-options')).toBeNull();
  const request = field(page, 'request')!;

  const answered = await confirm({ request, choice: 'add' });
  expect(answered.status).toBe(200);
  const answer = await answered.text();
  expect(answer).toContain(
    `<form id="lti-answer" method="post" action="${RETURN_URL.replace('&', '&amp;')}">`,
  );
  const scriptNonce = /<script nonce="([^"]+)">/.exec(answer)![1]!;
  expect(answered.headers.get('content-security-policy')).toContain(`script-src 'nonce-${scriptNonce}'`);

  const jwt = field(answer, 'JWT')!;
  const { payload } = await jwtVerify(jwt, await toolKeys(), {
    issuer: file.platform.clientId,
    audience: file.platform.issuer,
    algorithms: ['RS256'],
  });
  expect(decodeProtectedHeader(jwt).kid).toEqual(expect.any(String));
  expect(payload).toMatchObject({
    nonce: expect.any(String),
    [`${CLAIM}message_type`]: 'LtiDeepLinkingResponse',
    [`${CLAIM}version`]: '1.3.0',
    [`${CLAIM}deployment_id`]: file.platform.deploymentId,
    [`${DL}data`]: 'opaque-platform-data',
    [`${DL}content_items`]: [
      {
        type: 'ltiResourceLink',
        title: 'Readiness assessment',
        url: `${PUBLIC_ORIGIN}/api/lti/launch`,
        lineItem: { scoreMaximum: 100, label: 'Readiness assessment' },
      },
    ],
  });
});

test('when the instructor cancels, then the response holds no activity', async () => {
  const { page } = await deepLinkingLaunch({ [`${DL}deep_linking_settings`]: settings({ data: undefined }) });
  const answer = await (await confirm({ request: field(page, 'request')!, choice: 'cancel' })).text();
  const { payload } = await jwtVerify(field(answer, 'JWT')!, await toolKeys());
  expect(payload[`${DL}content_items`]).toEqual([]);
  expect(payload).not.toHaveProperty(`${DL}data`);
});

describe('hostile or refused deep linking, each with nothing kept', () => {
  test('when the confirmation is posted again, then the replay is refused', async () => {
    const { page } = await deepLinkingLaunch();
    const request = field(page, 'request')!;
    expect((await confirm({ request, choice: 'add' })).status).toBe(200);
    const replayed = await confirm({ request, choice: 'add' });
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain('expired or was used already');
  });

  test('when the form names another return address or a made-up request, then the answer goes to the verified address only', async () => {
    const { page } = await deepLinkingLaunch();
    const tampered = await confirm({
      request: field(page, 'request')!,
      choice: 'add',
      deep_link_return_url: 'https://evil.example.com/steal',
    });
    const answer = await tampered.text();
    expect(answer).toContain(`action="${RETURN_URL.replace('&', '&amp;')}"`);
    expect(answer).not.toContain('evil.example.com');
    expect((await confirm({ request: 'made-up', choice: 'add' })).status).toBe(400);
  });

  test('when the connection is disabled between the launch and the confirmation, then no answer is signed', async () => {
    const { page } = await deepLinkingLaunch();
    await setDisabled(file.h, file.platformId, true);
    try {
      const refused = await confirm({ request: field(page, 'request')!, choice: 'add' });
      expect(refused.status).toBe(403);
      expect(await refused.text()).not.toContain('name="JWT"');
    } finally {
      await setDisabled(file.h, file.platformId, false);
    }
  });

  const refusals: Array<[string, Record<string, unknown>, number, string]> = [
    ['the launcher is a learner', { [`${CLAIM}roles`]: [LEARNER] }, 403, 'Only instructors'],
    [
      'the LMS accepts no resource link here',
      { [`${DL}deep_linking_settings`]: settings({ accept_types: ['link', 'file'] }) },
      400,
      'does not accept an activity',
    ],
    [
      'the return address is a script',
      { [`${DL}deep_linking_settings`]: settings({ deep_link_return_url: 'javascript:alert(1)' }) },
      400,
      'no valid address',
    ],
  ];
  test.each(refusals)('when %s, then it is refused with a page', async (_case, claims, status, text) => {
    const before = await requests();
    const { res, page } = await deepLinkingLaunch(claims);
    expect(res.status).toBe(status);
    expect(page).toContain(text);
    expect(res.headers.get('content-security-policy')).toContain(
      `frame-ancestors 'self' ${file.platform.issuer}`,
    );
    expect(await requests()).toBe(before);
  });
});

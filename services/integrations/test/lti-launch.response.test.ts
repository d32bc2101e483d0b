import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  completeLaunch,
  followTicket,
  launch,
  login,
  PUBLIC_ORIGIN,
  register,
  startServices,
  startTestPlatform,
  superAdminToken,
  type Harness,
  type TestPlatform,
} from './harness';

jest.setTimeout(90_000);

let h: Harness;
let platform: TestPlatform;
let platformId: string;

beforeAll(async () => {
  h = await startServices();
  platform = await startTestPlatform();
  platformId = (await register(h, platform)).id;
});

afterAll(async () => {
  await h?.close();
  await platform?.close();
});

const count = async (table: string) => {
  const found = await h.integrations.database.execute<{ n: number }>(
    sql.raw(`SELECT count(*)::int AS n FROM ${table}`),
  );
  return found[0]!.n;
};
const studentCount = async () => {
  const found = await h.student.database.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM students`);
  return found[0]!.n;
};

const learnerLaunch = (sub: string, claims: Record<string, unknown> = {}) =>
  completeLaunch(h, platform, sub, claims);

/** What a refusal must leave: no launch kept, no student made, and a page (not JSON, no stack). */
async function expectRefusedPage(res: Response, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/text\/html/);
  const page = await res.text();
  expect(page).toContain('Launch refused');
  expect(page).not.toMatch(/at .*\.(ts|js):\d+/);
}

test('when a learner launches from the LMS, then login, launch and ticket lead to their own assessment page, and a second launch reaches the same student', async () => {
  const sub = `learner-${randomUUID()}`;
  const first = await learnerLaunch(sub, { name: 'Ada Lovelace', email: 'Ada.LTI@example.edu' });

  const auth = first.started.redirect!;
  expect(first.started.res.status).toBe(302);
  expect(`${auth.origin}${auth.pathname}`).toBe(platform.authUrl);
  expect(Object.fromEntries(auth.searchParams)).toEqual({
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: platform.clientId,
    redirect_uri: `${PUBLIC_ORIGIN}/api/lti/launch`,
    login_hint: 'user-hint',
    lti_message_hint: 'message-hint',
    state: expect.stringMatching(/^[\w-]{43}$/),
    nonce: expect.stringMatching(/^[\w-]{43}$/),
  });
  expect(first.started.setCookie).toMatch(/HttpOnly/);
  expect(first.started.setCookie).toMatch(/SameSite=None; Secure; Partitioned/);

  expect(first.launched.status).toBe(303);
  expect(first.launched.headers.get('location')).toMatch(
    new RegExp(`^${PUBLIC_ORIGIN}/api/student/lti/launch\\?ticket=sealed\\.v1\\.`),
  );
  // The ticket carries the name and e-mail sealed: nothing of them is readable in the address.
  expect(first.launched.headers.get('location')).not.toContain('Ada');

  expect(first.ticket.status).toBe(303);
  const page = new URL(first.ticket.headers.get('location')!);
  expect(page.origin).toBe(PUBLIC_ORIGIN);
  const token = /^\/assessment\/([\w-]+)$/.exec(page.pathname)![1]!;
  const student = await fetch(`${h.student.url}/api/student/${token}`);
  expect(await student.json()).toEqual({ student: { name: 'Ada Lovelace', email: 'ada.lti@example.edu' } });

  const again = await learnerLaunch(sub, { name: 'Ada Lovelace', email: 'ada.lti@example.edu' });
  expect(again.ticket.status).toBe(303);
  expect(again.ticket.headers.get('location')).toBe(first.ticket.headers.get('location'));
});

test('when the LMS gives no e-mail, then the student is known by the LMS identity alone', async () => {
  const before = await studentCount();
  const { ticket } = await learnerLaunch(`no-mail-${randomUUID()}`, {
    given_name: 'Grace',
    family_name: 'Hopper',
  });
  expect(ticket.status).toBe(303);
  const token = new URL(ticket.headers.get('location')!).pathname.split('/').pop()!;
  const student = await fetch(`${h.student.url}/api/student/${token}`);
  expect(await student.json()).toEqual({ student: { name: 'Grace Hopper', email: '' } });
  expect(await studentCount()).toBe(before + 1);
});

test('when a launch ticket is used a second time, then the student service refuses it with a page', async () => {
  const { launched } = await learnerLaunch(`ticket-${randomUUID()}`);
  const replayed = await followTicket(h, launched.headers.get('location')!);
  expect(replayed.status).toBe(400);
  expect(await replayed.text()).toContain('open the activity from your course again');
});

describe('hostile launches, each refused with nothing kept', () => {
  let launches: number;
  let students: number;
  beforeEach(async () => {
    launches = await count('lti_launches');
    students = await studentCount();
  });
  afterEach(async () => {
    expect(await count('lti_launches')).toBe(launches);
    expect(await studentCount()).toBe(students);
  });

  test('when the same id_token and state are posted again, then the replay is refused', async () => {
    const { started, idToken, launched } = await learnerLaunch(`replay-${randomUUID()}`);
    expect(launched.status).toBe(303);
    launches += 1;
    students += 1;
    await expectRefusedPage(
      await launch(h, { id_token: idToken, state: started.state }, started.cookie),
      400,
    );
  });

  test('when an id_token already used comes with a fresh state, then its nonce (not the state’s) refuses it', async () => {
    const { idToken } = await learnerLaunch(`nonce-${randomUUID()}`);
    launches += 1;
    students += 1;
    const fresh = await login(h, platform);
    await expectRefusedPage(await launch(h, { id_token: idToken, state: fresh.state }, fresh.cookie), 401);
  });

  const refusals: Array<[string, (nonce: string) => Promise<string>, number]> = [
    [
      'the audience is another tool',
      (nonce) => platform.idToken({ sub: 's', nonce }, { audience: 'another-tool' }),
      401,
    ],
    [
      'several audiences come without azp naming this tool',
      (nonce) => platform.idToken({ sub: 's', nonce }, { audience: [platform.clientId, 'another-tool'] }),
      401,
    ],
    [
      'the deployment is not registered',
      (nonce) =>
        platform.idToken({
          sub: 's',
          nonce,
          'https://purl.imsglobal.org/spec/lti/claim/deployment_id': 'dep-x',
        }),
      400,
    ],
    [
      'the token has expired',
      (nonce) =>
        platform.idToken({ sub: 's', nonce }, { iat: Math.floor(Date.now() / 1000) - 600, expiresIn: 120 }),
      401,
    ],
    [
      'the token is signed by another key',
      (nonce) => platform.idToken({ sub: 's', nonce }, { key: 'other' }),
      401,
    ],
    [
      'the version is not 1.3.0',
      (nonce) =>
        platform.idToken({ sub: 's', nonce, 'https://purl.imsglobal.org/spec/lti/claim/version': '1.1' }),
      400,
    ],
    [
      'the message is neither a resource link launch nor deep linking',
      (nonce) =>
        platform.idToken({
          sub: 's',
          nonce,
          'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiSubmissionReviewRequest',
        }),
      400,
    ],
  ];
  test.each(refusals)('when %s, then the launch is refused', async (_case, token, status) => {
    const started = await login(h, platform);
    await expectRefusedPage(
      await launch(h, { id_token: await token(started.nonce), state: started.state }, started.cookie),
      status,
    );
    // The state was not used up by the refusal: a good id_token still completes it.
    const good = await launch(
      h,
      {
        id_token: await platform.idToken({ sub: `after-${randomUUID()}`, nonce: started.nonce }),
        state: started.state,
      },
      started.cookie,
    );
    expect(good.status).toBe(303);
    launches += 1;
  });

  test('when the state comes from another browser (no cookie, or another one), then the launch is refused', async () => {
    const started = await login(h, platform);
    const other = await login(h, platform);
    const idToken = await platform.idToken({ sub: 'stolen', nonce: started.nonce });
    await expectRefusedPage(await launch(h, { id_token: idToken, state: started.state }), 403);
    const forged = `${started.cookie.split('=')[0]}=${other.cookie.split('=')[1]}`;
    await expectRefusedPage(await launch(h, { id_token: idToken, state: started.state }, forged), 403);
  });

  test('when the login names a target on another site or an unknown LMS, then it is refused and no state kept', async () => {
    const logins = await count('lti_logins');
    await expectRefusedPage(
      (await login(h, platform, { target_link_uri: 'https://evil.example.com/launch' })).res,
      400,
    );
    await expectRefusedPage((await login(h, platform, { iss: 'https://unknown.example.edu' })).res, 400);
    await expectRefusedPage((await login(h, platform, { client_id: 'someone-else' })).res, 400);
    expect(await count('lti_logins')).toBe(logins);
  });

  test('when the registration is disabled, then neither a login nor a launch already under way gets through', async () => {
    const started = await login(h, platform);
    const current = await h.integrations.call('GET', '/api/admin/lti/platforms', {
      token: superAdminToken(),
    });
    const mine = ((await current.json()) as { platforms: Array<Record<string, unknown>> }).platforms.find(
      (p) => p.id === platformId,
    )!;
    const { id: _id, createdAt: _created, updatedAt: _updated, ...body } = mine;
    const toggle = (disabled: boolean) =>
      h.integrations.call('PUT', `/api/admin/lti/platforms/${platformId}`, {
        token: superAdminToken(),
        body: { ...body, disabled },
      });
    expect((await toggle(true)).status).toBe(200);
    try {
      const idToken = await platform.idToken({ sub: 'disabled', nonce: started.nonce });
      await expectRefusedPage(
        await launch(h, { id_token: idToken, state: started.state }, started.cookie),
        403,
      );
      await expectRefusedPage((await login(h, platform)).res, 403);
    } finally {
      expect((await toggle(false)).status).toBe(200);
    }
  });
});

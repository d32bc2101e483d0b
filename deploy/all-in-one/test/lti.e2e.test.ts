import { randomUUID } from 'node:crypto';
import { eventually, startTestLms, type TestLms } from '@readiness/testing';
import { api, SEED as OWNER, sharedOrOwnProduct, type RunningProduct } from './launcher';

jest.setTimeout(120_000);

const AGS = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
const SCORE_SCOPE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';

interface Page {
  assessment: { questions: Array<{ id: string; type: string; options: Array<{ id: string }> }> };
}

/** The browser's part of a launch: login initiation, the LMS's signed answer, the launch, the ticket. */
async function learnerLaunch(base: string, lms: TestLms, launchUrl: string, sub: string) {
  const query = new URLSearchParams({
    iss: lms.issuer,
    login_hint: sub,
    target_link_uri: launchUrl,
    client_id: lms.clientId,
    lti_deployment_id: lms.deploymentId,
  });
  const login = await fetch(`${base}/api/lti/login?${query}`, { redirect: 'manual' });
  expect(login.status).toBe(302);
  const toLms = new URL(login.headers.get('location')!);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const idToken = await lms.idToken({
    sub,
    nonce: toLms.searchParams.get('nonce'),
    name: 'Lin Learner',
    [AGS]: { scope: [SCORE_SCOPE], lineitem: lms.lineItem },
  });
  const launched = await fetch(`${base}/api/lti/launch`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ id_token: idToken, state: toLms.searchParams.get('state')! }).toString(),
  });
  expect(launched.status).toBe(303);
  const ticket = new URL(launched.headers.get('location')!);
  const opened = await fetch(`${base}${ticket.pathname}${ticket.search}`, { redirect: 'manual' });
  expect(opened.status).toBe(303);
  return new URL(opened.headers.get('location')!).pathname;
}

describe('an LMS learner in `make start`', () => {
  let product: RunningProduct;
  const lmss: TestLms[] = [];

  beforeAll(async () => {
    product = await sharedOrOwnProduct();
  });
  afterAll(async () => {
    for (const lms of lmss) await lms.close();
    await product?.stop();
  });

  test('when a learner launches from the LMS and submits, then their score reaches the LMS gradebook once, and the admin sees it sent', async () => {
    const base = product.url;
    const token = (await api<{ token: string }>(base, 'POST', '/api/auth/login', { body: OWNER })).body.token;
    // The URLs the LMS connections screen tells an LMS admin to paste (under PUBLIC_ORIGIN).
    const { tool } = (
      await api<{ tool: { launchUrl: string; jwksUrl: string } }>(base, 'GET', '/api/admin/lti/platforms', {
        token,
      })
    ).body;
    const lms = await startTestLms({ toolOrigin: new URL(tool.launchUrl).origin });
    lmss.push(lms);
    lms.trustTool(tool.jwksUrl);
    const registered = await api(base, 'POST', '/api/admin/lti/platforms', {
      token,
      body: {
        name: 'Course LMS',
        issuer: lms.issuer,
        clientId: lms.clientId,
        deploymentIds: [lms.deploymentId],
        authUrl: lms.authUrl,
        jwksUrl: lms.jwksUrl,
        tokenUrl: lms.tokenUrl,
      },
    });
    expect(registered.status).toBe(201);

    const sub = `lms-user-${randomUUID()}`;
    const page = await learnerLaunch(base, lms, tool.launchUrl, sub);
    expect(page).toMatch(/^\/assessment\/[\w-]+$/);
    const link = `/api/student/${page.split('/').pop()}`;
    const welcome = await api<Page>(base, 'GET', `${link}/assessment`);
    expect(welcome.status).toBe(200);
    const started = await api<{ attempt: { id: string } }>(base, 'POST', `${link}/start`);
    expect(started.status).toBe(201);
    const answers = welcome.body.assessment.questions
      .filter((q) => q.type !== 'file_upload')
      .map((q) => ({ questionId: q.id, answer: q.type === 'yes_no' ? 'yes' : q.options[0]!.id }));
    const submitted = await api(base, 'POST', `${link}/submit`, {
      body: {
        attemptId: started.body.attempt.id,
        answers,
        timeSpent: 1,
        startedAt: new Date().toISOString(),
      },
    });
    expect([200, 202]).toContain(submitted.status);

    const score = await eventually(
      () => lms.scores.find((s) => s.body.userId === sub) ?? false,
      'the score at the LMS',
      30_000,
    );
    expect(score.body).toMatchObject({
      scoreMaximum: 100,
      activityProgress: 'Completed',
      gradingProgress: 'FullyGraded',
    });
    const results = await api<{ results: Array<{ _id: string; student: { name: string } }> }>(
      base,
      'GET',
      '/api/admin/results?search=Lin%20Learner',
      { token },
    );
    const resultId = results.body.results[0]!._id;
    // The LMS has the score before the product records its answer: the admin sees it sent a moment later.
    const grade = await eventually(
      async () => {
        const seen = await api<{ grade: { state: string; scoreGiven: number } }>(
          base,
          'GET',
          `/api/admin/lti/grades/${resultId}`,
          { token },
        );
        return seen.body.grade.state === 'sent' ? seen.body.grade : false;
      },
      'the grade recorded as sent',
      10_000,
    );
    expect(grade).toMatchObject({ state: 'sent', scoreGiven: score.body.scoreGiven });
    expect(lms.scores.filter((s) => s.body.userId === sub)).toHaveLength(1);
  });
});

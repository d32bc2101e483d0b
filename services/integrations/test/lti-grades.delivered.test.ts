import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { timestampFromDate } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import {
  adminToken,
  completeLaunch,
  register,
  startServices,
  startTestPlatform,
  type Harness,
  type TestPlatform,
} from './harness';

jest.setTimeout(90_000);

const AGS = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
const SCORE_SCOPE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';

let h: Harness;
let platform: TestPlatform;

// Every replica signs with the same key, as the chart gives them one (LTI_PRIVATE_KEY); short waits between tries so
// the LMS's outage heals within the test.
const config = {
  LTI_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }),
  LTI_GRADE_RETRY_BASE_MS: 100,
  LTI_GRADE_INTERVAL_MS: 60_000,
};

beforeAll(async () => {
  h = await startServices(config);
  platform = await startTestPlatform();
  platform.trustTool(`${h.integrations.url}/api/lti/jwks`);
  await register(h, platform);
});

afterAll(async () => {
  await h?.close();
  await platform?.close();
});

const agsClaim = (lineitem: string) => ({
  [AGS]: { scope: [SCORE_SCOPE], lineitem, lineitems: `${lineitem.replace(/\/1$/, '')}` },
});

/** A learner launched with the gradebook column; the launch's id and the student it opened. */
async function launchedLearner(sub: string) {
  const { ticket } = await completeLaunch(h, platform, sub, agsClaim(platform.lineItem));
  expect(ticket.status).toBe(303);
  const [row] = await h.integrations.database.execute<{ id: string }>(
    sql`SELECT id FROM lti_launches WHERE subject = ${sub}`,
  );
  const [student] = await h.student.database.execute<{ student_id: string }>(
    sql`SELECT student_id FROM lti_identities WHERE subject = ${sub}`,
  );
  return { launchId: row!.id, studentId: student!.student_id };
}

/** A result recorded by the results service for that student, naming the launch as the submission did. */
const recorded = (launchId: string, studentId: string, score = 16, totalPoints = 23) => ({
  resultId: randomUUID(),
  attemptId: randomUUID(),
  studentId,
  score,
  totalPoints,
  percentage: Math.round((score * 100) / totalPoints),
  passed: score * 100 >= 70 * totalPoints,
  attemptNumber: 1,
  completedAt: timestampFromDate(new Date('2026-12-01T10:00:00Z')),
  ltiLaunchId: launchId,
});

const grade = async (resultId: string) => {
  const res = await h.integrations.call('GET', `/api/admin/lti/grades/${resultId}`, { token: adminToken() });
  return { status: res.status, body: (await res.json()) as { grade?: Record<string, unknown> } };
};

describe('grades back to the LMS (Assignment and Grade Services)', () => {
  it('when the LMS is down for a while, then each score arrives once, as AGS 2.0 defines it, and the admin sees it sent', async () => {
    const { launchId, studentId } = await launchedLearner(`learner-${randomUUID()}`);
    const before = platform.scores.length;
    platform.failScores(3);
    const events = [recorded(launchId, studentId), recorded(launchId, studentId, 23, 23)];
    const sent = [];
    for (const e of events) sent.push(await h.integrations.publish('results.result.recorded.v1', e));
    // A redelivery of the same event and a second replica's sender at the same time change nothing.
    await h.integrations.bus.publish([sent[0]!]);
    const replica = await h.integrations.startReplica(config);
    try {
      await eventually(
        async () => {
          for (const e of events) expect((await grade(e.resultId)).body.grade?.state).toBe('sent');
        },
        'the grade',
        30_000,
      );
    } finally {
      await replica.stop();
    }
    const taken = platform.scores.slice(before);
    expect(taken).toHaveLength(2);
    const first = taken.find((s) => s.body.scoreGiven === 69.6)!;
    expect(first.contentType).toBe('application/vnd.ims.lis.v1.score+json');
    expect(first.body).toEqual({
      userId: expect.stringMatching(/^learner-/),
      scoreGiven: 69.6,
      scoreMaximum: 100,
      activityProgress: 'Completed',
      gradingProgress: 'FullyGraded',
      timestamp: '2026-12-01T10:00:00.000Z',
    });
    expect(taken.map((s) => s.body.scoreGiven).sort()).toEqual([100, 69.6]);
    // Three 503s were answered in all, then each score was taken once: five tries between the two.
    const shown = await Promise.all(events.map(async (e) => (await grade(e.resultId)).body.grade!));
    expect(shown[0]).toMatchObject({
      state: 'sent',
      scoreGiven: 69.6,
      lastStatus: 200,
      platformName: 'Test LMS',
    });
    expect(shown.reduce((n, g) => n + (g.tries as number), 0)).toBe(5);
    // Each replica asked for its access token once and kept it for its next tries.
    expect(platform.tokensGiven).toBeLessThanOrEqual(2);
  });

  it('when the LMS refuses a score, then it is given up with its answer, and "Send again" sends it once more', async () => {
    const { launchId, studentId } = await launchedLearner(`learner-${randomUUID()}`);
    const before = platform.scores.length;
    platform.failScores(1, 400);
    const e = recorded(launchId, studentId, 20, 23);
    await h.integrations.publish('results.result.recorded.v1', e);
    await eventually(
      async () => expect((await grade(e.resultId)).body.grade?.state).toBe('failed'),
      'given up',
      20_000,
    );
    const failedGrade = (await grade(e.resultId)).body.grade!;
    expect(failedGrade).toMatchObject({ lastStatus: 400, tries: 1 });
    expect(failedGrade.lastAnswer).toContain('refused');
    expect(platform.scores.length).toBe(before);

    const again = await h.integrations.call('POST', `/api/admin/lti/grades/${e.resultId}/send`, {
      token: adminToken(),
    });
    expect(again.status).toBe(202);
    await eventually(
      async () => expect((await grade(e.resultId)).body.grade?.state).toBe('sent'),
      'sent',
      20_000,
    );
    expect(platform.scores.slice(before).map((s) => s.body.scoreGiven)).toEqual([86.9]);
  });

  it('when a result is not from an LMS, or unknown, then there is no grade (404), and "Send again" changes nothing', async () => {
    await h.integrations.publish('results.result.recorded.v1', {
      ...recorded('', randomUUID()),
      ltiLaunchId: '',
    });
    expect((await grade(randomUUID())).status).toBe(404);
    expect((await grade('%2e%2e%2fplatforms')).status).toBe(404);
    const again = await h.integrations.call('POST', `/api/admin/lti/grades/${randomUUID()}/send`, {
      token: adminToken(),
    });
    expect(again.status).toBe(404);
    const none = await h.integrations.call('GET', `/api/admin/lti/grades/${randomUUID()}`, { token: null });
    expect(none.status).toBe(401);
  });

  it('when the launch names a gradebook column on another host, then the launch is refused and nothing is kept', async () => {
    const sub = `learner-${randomUUID()}`;
    const { launched } = await completeLaunch(
      h,
      platform,
      sub,
      agsClaim('https://attacker.example.net/lineitems/1'),
    );
    expect(launched.status).toBe(400);
    expect(await launched.text()).toContain('gradebook column is on another site');
    const kept = await h.integrations.database.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM lti_launches WHERE subject = ${sub}`,
    );
    expect(kept[0]!.n).toBe(0);
  });

  it('when the student is erased, then their launches and scores go, and no score is sent for them any more', async () => {
    const sub = `learner-${randomUUID()}`;
    const { launchId, studentId } = await launchedLearner(sub);
    await h.integrations.publish('student.lti-launch.accepted.v1', {
      studentId,
      launchId,
      issuer: platform.issuer,
      subject: sub,
      created: true,
    });
    platform.failScores(1_000);
    const e = recorded(launchId, studentId);
    await h.integrations.publish('results.result.recorded.v1', e);
    await eventually(async () => expect((await grade(e.resultId)).status).toBe(200), 'kept', 10_000);
    await h.integrations.publish('student.student.deleted.v1', {
      studentId,
      email: '',
      actorId: randomUUID(),
    });
    await eventually(async () => expect((await grade(e.resultId)).status).toBe(404), 'erased', 10_000);
    platform.failScores(0);
    const left = await h.integrations.database.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM lti_launches WHERE subject = ${sub}`,
    );
    expect(left[0]!.n).toBe(0);
  });

  it('when an instructor launches an activity, then a read-only page lists only the learners of that activity, with their newest results', async () => {
    const link = { id: `link-${randomUUID()}`, title: 'Week 1 readiness' };
    const resourceLink = { 'https://purl.imsglobal.org/spec/lti/claim/resource_link': link };
    const finished = await completeLaunch(h, platform, `ada-${randomUUID()}`, {
      ...resourceLink,
      name: 'Ada <b>L</b>',
    });
    expect(finished.ticket.status).toBe(303);
    await completeLaunch(h, platform, `bo-${randomUUID()}`, { ...resourceLink, name: 'Bo Open' });
    await completeLaunch(h, platform, `cy-${randomUUID()}`, { name: 'Cy Elsewhere' });
    const [ada] = await h.integrations.database.execute<{ id: string }>(
      sql`SELECT id FROM lti_launches WHERE name = 'Ada <b>L</b>'`,
    );
    const e = recorded(ada!.id, randomUUID(), 20, 23);
    await h.integrations.publish('results.result.recorded.v1', e);
    await eventually(async () => expect((await grade(e.resultId)).status).toBe(200), 'kept', 10_000);

    const teacher = await completeLaunch(h, platform, `teacher-${randomUUID()}`, {
      ...resourceLink,
      'https://purl.imsglobal.org/spec/lti/claim/roles': [
        'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
      ],
    });
    expect(teacher.launched.status).toBe(200);
    expect(teacher.launched.headers.get('cache-control')).toBe('no-store');
    // Framed by the LMS (its auth URL's origin), no script.
    const policy = teacher.launched.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/frame-ancestors 'self' [^;]*/);
    expect(/frame-ancestors [^;]*/.exec(policy)![0].split(' ')).toContain(new URL(platform.authUrl).origin);
    expect(policy).toContain("script-src 'none'");
    const page = await teacher.launched.text();
    expect(page).toContain('<h1>Week 1 readiness</h1>');
    expect(page).toContain('2 learners opened it; 1 finished, 1 passed.');
    expect(page).toContain('Ada &lt;b&gt;L&lt;/b&gt;');
    expect(page).toMatch(/Passed<\/td><td>86\.9 %/);
    expect(page).toMatch(/Bo Open<\/bdi><\/th><td>Not finished/);
    expect(page).not.toContain('Cy Elsewhere');
    expect(page).not.toContain('teacher-');
  });

  it('when a launch has neither a learner nor an instructor role, then it is refused and nothing is kept', async () => {
    const sub = `guest-${randomUUID()}`;
    const { launched } = await completeLaunch(h, platform, sub, {
      'https://purl.imsglobal.org/spec/lti/claim/roles': [
        'http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor',
      ],
    });
    expect(launched.status).toBe(403);
    const kept = await h.integrations.database.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM lti_launches WHERE subject = ${sub}`,
    );
    expect(kept[0]!.n).toBe(0);
  });
});

import { createHash } from 'node:crypto';
import { closeRedis, createRedis, type Redis } from '@readiness/kit/cache';
import { createTestRedis, type TestRedis } from '@readiness/testing';
import { start, type RunningGateway } from '../src/service';
import { gatewayConfig, silentLogger, startUpstream, type Upstream } from './helpers';

describe('student flow limits behind one NAT address', () => {
  let student: Upstream;
  let testRedis: TestRedis;
  let redis: Redis;
  let gateway: RunningGateway;

  beforeAll(async () => {
    student = await startUpstream((app) => {
      app.use((_req, res) => {
        res.json({ from: 'student' });
      });
    });
    testRedis = await createTestRedis();
    redis = createRedis({ url: testRedis.url, keyPrefix: testRedis.prefix, logger: silentLogger });
    gateway = await start({
      config: gatewayConfig({
        STUDENT_URL: student.url,
        RATE_LIMIT_API: '5',
        RATE_LIMIT_STUDENT: '20',
        RATE_LIMIT_STUDENT_TOKEN: '3',
        RATE_LIMIT_STUDENT_WRITES: '60',
        RATE_LIMIT_STUDENT_TOKEN_WRITES: '10',
      }),
      logger: silentLogger,
      redis,
    });
  });

  afterAll(async () => {
    await gateway.stop();
    await closeRedis(redis);
    await testRedis.close();
    await student.close();
  });

  const load = (token: string) => fetch(`${gateway.url}/api/student/${token}/assessment`);
  const save = (token: string) =>
    fetch(`${gateway.url}/api/student/${token}/answers`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ attemptId: 'a', seq: 1, answers: [] }),
    });

  it('when a classroom loads its pages from one address, then the API-wide per-IP limit does not count them', async () => {
    const statuses = await Promise.all(Array.from({ length: 15 }, (_, i) => load(`class-${i}`)));
    expect(statuses.map((r) => r.status)).toEqual(Array(15).fill(200));
  });

  it('when one token is looked up too often, then that token is refused and its classmates are not', async () => {
    for (let i = 0; i < 3; i++) expect((await load('busy')).status).toBe(200);
    const refused = await load('busy');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      message: 'Too many requests, please try again later',
      code: 'rate_limited',
    });
    expect((await load('classmate')).status).toBe(200);
  });

  it('when the address has used up its look-ups, then autosave, files and submit still go through', async () => {
    for (let i = 0; i < 20; i++) await load(`guess-${i}`);
    expect((await load('another')).status).toBe(429);
    const writes = await Promise.all([
      save('writer-1'),
      save('writer-2'),
      fetch(`${gateway.url}/api/student/writer-1/submit`, { method: 'POST' }),
      fetch(`${gateway.url}/api/student/writer-2/files`, { method: 'POST' }),
      fetch(`${gateway.url}/api/student/writer-3/start`, { method: 'POST' }),
    ]);
    expect(writes.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it("when the address's limit refuses look-ups, then the student's own budget is not used up by them", async () => {
    // The address used up its look-ups in the test before; both limits are counted in one round trip.
    const refused = await Promise.all(Array.from({ length: 5 }, () => load('spared')));
    expect(refused.map((r) => r.status)).toEqual(Array(5).fill(429));
    const digest = createHash('sha256').update('spared').digest('base64url').slice(0, 22);
    expect(Number((await redis.get(`gateway:student-token:${digest}`)) ?? 0)).toBe(0);
  });

  it('when one student writes far too often, then only that student is slowed down', async () => {
    for (let i = 0; i < 10; i++) expect((await save('chatty')).status).toBe(200);
    expect((await save('chatty')).status).toBe(429);
    expect((await save('quiet')).status).toBe(200);
    // Tokens are not kept readable in the limit keys.
    const keys = await redis.keys(`${testRedis.prefix}gateway:student-token*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join(' ')).not.toContain('chatty');
  });
});

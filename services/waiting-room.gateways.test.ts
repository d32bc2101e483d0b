import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { startServiceUnderTest } from '@readiness/testing';
import { start as startGateway, type RunningGateway } from './gateway/src/service';
import { gatewayConfig, silentLogger } from './gateway/test/helpers';
import { studentService } from './student/src';
import { adminJson, publishVersion, type Harness } from './student/test/harness';

jest.setTimeout(90_000);

// The waiting room as students meet it: two gateways, each in front of its own student replica, one line in the
// student database. A gateway restarts while the students wait.
let student: Harness;
const gateways: RunningGateway[] = [];

const gatewayTo = (url: string) =>
  startGateway({
    config: gatewayConfig({
      STUDENT_URL: url,
      RATE_LIMIT_STUDENT: '100000',
      RATE_LIMIT_STUDENT_WRITES: '100000',
    }),
    logger: silentLogger,
  });

beforeAll(async () => {
  student = (await startServiceUnderTest(studentService, {
    kind: 'embedded',
    s3: true,
  })) as unknown as Harness;
  await publishVersion(student);
  const replica = await student.startReplica();
  gateways.push(await gatewayTo(student.url), await gatewayTo(replica.url));
});
afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  await student?.close();
});

const call = adminJson;
const ceiling = (ceilingPerMinute: number | null) =>
  call(student.url, 'PUT', '/api/admin/students/waiting-room', { ceilingPerMinute });
const invite = async () =>
  (
    await call(student.url, 'POST', '/api/admin/students/invite', {
      name: `Student ${randomUUID().slice(0, 8)}`,
      email: `student-${randomUUID()}@example.edu`,
    })
  ).json.student as { _id: string; inviteToken: string };

test('when Starts beyond the rate come through two gateways, then they wait in the order they came, without an attempt; a gateway restarts and every place holds; raising the rate lets them start in that order, each page following the line through its own gateway', async () => {
  const students = [];
  for (let i = 0; i < 8; i++) students.push(await invite());
  // The rate at one a minute, its one second's credit spent: the line moves only when the test says.
  expect((await ceiling(1)).status).toBe(200);
  await student.database.execute(sql`UPDATE waiting_room SET serving = arrivals`);

  const gatewayOf = (i: number) => gateways[i % 2]!.url;
  const tickets: number[] = [];
  for (const [i, s] of students.entries()) {
    const waiting = await call(gatewayOf(i), 'POST', `/api/student/${s.inviteToken}/start`, {});
    expect([waiting.status, waiting.json.waiting?.ahead]).toEqual([202, i]);
    tickets.push(waiting.json.waiting.ticket as number);
  }
  expect(tickets).toEqual([...tickets].sort((a, b) => a - b));
  const ids = `{${students.map((s) => s._id).join(',')}}`;
  const attempts = async () =>
    (
      await student.database.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM attempts WHERE student_id = ANY(${ids}::uuid[])`,
      )
    )[0]!.n;
  expect(await attempts()).toBe(0);

  // The first gateway restarts; every student reloads through the other gateway's peer: the same places.
  await gateways[0]!.stop();
  gateways[0] = await gatewayTo(student.url);
  for (const [i, s] of students.entries()) {
    const again = await call(gatewayOf(i + 1), 'POST', `/api/student/${s.inviteToken}/start`, {});
    expect(again.json.waiting).toMatchObject({ ticket: tickets[i], ahead: i });
  }

  // Two a second. Each page follows the line through its gateway and, impatient, asks to start every 100 ms even
  // before its turn: only the line decides who starts.
  expect((await ceiling(120)).status).toBe(200);
  const startedAt: number[] = [];
  const refused: { ticket: number; sentAt: number }[] = [];
  await Promise.all(
    students.map(async (s, i) => {
      for (;;) {
        const line = await call(gatewayOf(i), 'GET', '/api/waiting-room');
        expect(line.status).toBe(200);
        const sentAt = performance.now();
        const started = await call(gatewayOf(i), 'POST', `/api/student/${s.inviteToken}/start`, {});
        if (started.status === 201) {
          startedAt[i] = performance.now();
          return;
        }
        expect(started.status).toBe(202);
        refused.push({ ticket: tickets[i]!, sentAt });
        await new Promise((r) => setTimeout(r, 100));
      }
    }),
  );
  // In ticket order: nobody was turned away after a later ticket had started (a waiting link's answer is kept a
  // second, hence the second), and the eight took the rate's time (3.5 s at two a second), not an instant: read from
  // the attempts' start times, which a slow answer on a busy machine does not move.
  for (const [i, at] of startedAt.entries())
    for (const late of refused.filter((r) => r.ticket < tickets[i]!))
      expect(late.sentAt).toBeLessThan(at + 1_000);
  expect(refused.length).toBeGreaterThan(8);
  const [spread] = await student.database.execute<{ seconds: number }>(
    sql`SELECT EXTRACT(EPOCH FROM max(started_at) - min(started_at))::float8 AS seconds
        FROM attempts WHERE student_id = ANY(${ids}::uuid[])`,
  );
  expect(spread!.seconds).toBeGreaterThan(2);
  expect(await attempts()).toBe(8);
  await ceiling(null);
});

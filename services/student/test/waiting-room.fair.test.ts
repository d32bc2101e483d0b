import { REVOCATIONS_FILLED_KEY, createMemoryStore } from '@readiness/kit/cache';
import { eventually } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { adminToken, inviteStudent, useStudent, type JsonBody } from './harness';

jest.setTimeout(60_000);

// One process-wide store, as the all-in-one shares it: where `waiting-room:busy` tells the other services.
const kv = createMemoryStore();
// As auth marks it when it has filled the store with the revocations in force (none here).
void kv.set(REVOCATIONS_FILLED_KEY, '1');
// On the memory bus: the line lives in the database, which every replica shares.
const h = useStudent('embedded', { shared: { kv } });

const ADMIN = adminToken();
type Answer = { status: number; json: JsonBody; retryAfter: string | null };

async function call(url: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    json: (await res.json()) as JsonBody,
    retryAfter: res.headers.get('retry-after'),
  };
}
const start = (token: string, url = h.url) => call(url, 'POST', `/api/student/${token}/start`, {});
const ceiling = (ceilingPerMinute: unknown) =>
  call(h.url, 'PUT', '/api/admin/students/waiting-room', { ceilingPerMinute });
const attemptsOf = async (ids: string[]) =>
  (
    await h.database.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM attempts WHERE student_id = ANY(${`{${ids.join(',')}}`}::uuid[])`,
    )
  )[0]!.n;

/** A line that moves only when the test says: the ceiling at 1 a minute, its one second's credit spent. */
async function holdTheLine() {
  expect((await ceiling(1)).status).toBe(200);
  await h.database.execute(sql`UPDATE waiting_room SET serving = arrivals`);
}

afterEach(async () => {
  await ceiling(null);
});

test('when an administrator lowers the rate, then Starts beyond it wait in line on every replica in the order they came, without an attempt or a running clock; asking again keeps the place; raising the rate lets them start in that order', async () => {
  const other = await h.startReplica();
  const replicas = [h.url, other.url];
  const students = [];
  for (let i = 0; i < 6; i++) students.push(await inviteStudent(h));
  await holdTheLine();

  // Six Starts, one after the other, alternating between the replicas: six tickets in that order.
  const tickets: number[] = [];
  for (const [i, s] of students.entries()) {
    const waiting = await start(s.token, replicas[i % 2]);
    expect(waiting.status).toBe(202);
    expect(waiting.json).toMatchObject({
      message: 'You are in line to start',
      waiting: { ahead: i, checkAfterSeconds: expect.any(Number) },
      line: { perMinute: 1, waiting: i + 1 },
    });
    expect(Number(waiting.retryAfter)).toBe(waiting.json.waiting.checkAfterSeconds);
    tickets.push(waiting.json.waiting.ticket as number);
  }
  expect(tickets).toEqual([...tickets].sort((a, b) => a - b));
  expect(new Set(tickets).size).toBe(6);
  expect(await attemptsOf(students.map((s) => s.id))).toBe(0);

  // A reload on the other replica keeps the place, and so does a Start after a second (no flood memory then).
  const again = await start(students[3]!.token, replicas[0]);
  expect(again.json.waiting.ticket).toBe(tickets[3]);
  await new Promise((r) => setTimeout(r, 1_100));
  expect((await start(students[3]!.token, replicas[1])).json.waiting.ticket).toBe(tickets[3]);

  // Everyone reads the same figures; the admin sees the line and how long the first has waited.
  const line = await call(h.url, 'GET', '/api/waiting-room');
  expect(line.json).toMatchObject({ serving: tickets[0]! - 1, perMinute: 1, waiting: 6 });
  const view = await call(other.url, 'GET', '/api/admin/students/waiting-room');
  expect(view.json).toMatchObject({ enabled: true, waiting: 6, ceilingPerMinute: 1, pressure: 'healthy' });
  expect(view.json.longestWaitSeconds).toBeGreaterThanOrEqual(1);
  await eventually(async () => expect(await kv.get('waiting-room:busy')).toBe('6'));

  // Two a second: each student asks every 100 ms on their own replica; admissions come in ticket order.
  expect((await ceiling(120)).status).toBe(200);
  const admittedAt: number[] = Array.from({ length: 6 }, () => 0);
  await Promise.all(
    students.map(async (s, i) => {
      for (;;) {
        const answer = await start(s.token, replicas[i % 2]);
        if (answer.status === 201) {
          admittedAt[i] = performance.now();
          return;
        }
        expect(answer.status).toBe(202);
        await new Promise((r) => setTimeout(r, 100));
      }
    }),
  );
  for (let i = 1; i < 6; i++) expect(admittedAt[i]).toBeGreaterThan(admittedAt[i - 1]! - 150);
  expect(admittedAt[5]! - admittedAt[0]!).toBeGreaterThan(1_500);
  expect(await attemptsOf(students.map((s) => s.id))).toBe(6);
  // Started: a Start now returns the attempt in progress, whatever the line does.
  await holdTheLine();
  expect((await start(students[0]!.token)).status).toBe(200);
});

test('when a waiting student floods their Start, then every answer keeps their ticket and the flood costs next to nothing; the place survives a restart of the replica', async () => {
  const [first, flooder] = [await inviteStudent(h), await inviteStudent(h)];
  await holdTheLine();
  const ahead = await start(first.token);
  const mine = await start(flooder.token);
  expect([ahead.status, mine.status]).toEqual([202, 202]);

  const flood = await h.countQueries(() =>
    Promise.all(Array.from({ length: 200 }, () => start(flooder.token))),
  );
  expect(new Set(flood.value.map((a) => `${a.status} ${a.json.waiting.ticket}`))).toEqual(
    new Set([`202 ${mine.json.waiting.ticket}`]),
  );
  // At most a read and a ticket look-up for each second the flood lasted, not 200 of each.
  expect(flood.queries).toBeLessThan(20);

  // Another replica, started after this one's memory is gone: the same ticket, one place behind the first.
  const fresh = await h.startReplica();
  await new Promise((r) => setTimeout(r, 1_100));
  const after = await start(flooder.token, fresh.url);
  expect(after.json.waiting).toMatchObject({ ticket: mine.json.waiting.ticket, ahead: 1 });
});

test('when an administrator sets a bad limit, then it is refused (400) with a clear message and the limit stays', async () => {
  expect((await ceiling(300)).status).toBe(200);
  for (const bad of [0, 100_001, 2.5, '60', true, undefined]) {
    const refused = await call(
      h.url,
      'PUT',
      '/api/admin/students/waiting-room',
      bad === undefined ? {} : { ceilingPerMinute: bad },
    );
    expect([refused.status, refused.json.message]).toEqual([
      400,
      expect.stringContaining('ceilingPerMinute must be a whole number from 1 to 100000, or null'),
    ]);
  }
  expect((await call(h.url, 'GET', '/api/admin/students/waiting-room')).json.ceilingPerMinute).toBe(300);
  expect((await fetch(`${h.url}/api/admin/students/waiting-room`)).status).toBe(401);
});

import { REVOCATIONS_FILLED_KEY, createMemoryStore } from '@readiness/kit/cache';
import { STUDENTS_WAITING_KEY } from '@readiness/kit/runtime';
import { eventually, holdTheEventLoopFor } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { adminToken, inviteStudent, useStudent, type JsonBody } from './harness';

jest.setTimeout(60_000);

// The waiting room as the product runs it: the rate follows the replica's measured pressure (an event loop late by
// more than the default 200 ms), between 6 and 300 starts a minute. The test holds the loop 400 ms at a time: a
// machine busy with other work delays it by tens of milliseconds, which must not read as the pressure ending or not.
// The process-wide store where the line tells the other services' background work to yield.
const kv = createMemoryStore();
void kv.set(REVOCATIONS_FILLED_KEY, '1');
const h = useStudent('embedded', {
  shared: { kv },
  config: {
    WAITING_ROOM: 'measured',
    WAITING_ROOM_MAX_PER_MINUTE: 300,
    WAITING_ROOM_MIN_PER_MINUTE: 6,
    // Background work yields at least 2 s after the line empties (30 s in the product), then until the replica is cool.
    WAITING_ROOM_DRAIN_SECONDS: 2,
  },
});

const ADMIN = adminToken();
const call = async (method: string, path: string): Promise<{ status: number; json: JsonBody }> => {
  const res = await fetch(`${h.url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN}` } });
  return { status: res.status, json: (await res.json()) as JsonBody };
};
const start = (token: string) => call('POST', `/api/student/${token}/start`);
/** The event loop held 400 ms in every 450 for `ms`: a replica far over its 200 ms limit. */
const holdTheLoop = (ms: number) => holdTheEventLoopFor(ms, { holdMs: 400, gapMs: 50 });
const view = async () => (await call('GET', '/api/admin/students/waiting-room')).json;

test('when a replica measures pressure (its event loop held up), then the rate falls and a line forms; when the pressure ends, the rate climbs back', async () => {
  const students = [];
  for (let i = 0; i < 10; i++) students.push(await inviteStudent(h));
  // A quiet product: a second's credit at hand.
  await h.database.execute(sql`UPDATE waiting_room SET advanced_at = now() - interval '1 minute'`);
  expect(await view()).toMatchObject({ pressure: 'healthy' });
  // An arrival wakes the replica's look at the line; then the event loop is held 400 ms in every 450 for 4 s.
  expect((await start((await inviteStudent(h)).token)).status).toBe(201);
  await holdTheLoop(4_000);
  const pressed = await view();
  expect(pressed.pressure).toBe('overloaded');
  expect(pressed.perMinute).toBeLessThan(200);
  // Ten at once: a second's worth start, the others wait.
  const answers = await Promise.all(students.map((s) => start(s.token)));
  const waiting = students.filter((_s, i) => answers[i]!.status === 202);
  expect(waiting.length).toBeGreaterThan(0);
  expect(answers.every((a) => a.status === 201 || a.status === 202)).toBe(true);
  // Quiet again: the rate climbs by a tenth and the least rate each second, and everyone in line starts.
  await eventually(
    async () => expect((await view()).perMinute).toBeGreaterThan(pressed.perMinute),
    'the rate climbing back',
    30_000,
  );
  for (const s of waiting) {
    await eventually(
      async () => expect((await start(s.token)).status).toBe(201),
      'the student admitted',
      20_000,
    );
  }
});

test('when the line empties while the replica is still loaded, then background work keeps yielding until the replica is cool again', async () => {
  const waited = await inviteStudent(h);
  // A line of one: the administrators' limit at 1 a minute, its second's credit spent.
  const limit = (ceilingPerMinute: number | null) =>
    fetch(`${h.url}/api/admin/students/waiting-room`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ceilingPerMinute }),
    });
  expect((await limit(1)).status).toBe(200);
  await h.database.execute(sql`UPDATE waiting_room SET serving = arrivals`);
  expect((await start(waited.token)).status).toBe(202);
  await eventually(async () => expect(await kv.get(STUDENTS_WAITING_KEY)).toBe('1'), 'the line told');
  // Their turn comes and they start: nobody waits any more, but the replica is loaded.
  expect((await limit(null)).status).toBe(200);
  await h.database.execute(sql`UPDATE waiting_room SET serving = arrivals`);
  await eventually(async () => expect((await start(waited.token)).status).toBe(201), 'the student admitted');
  await holdTheLoop(3_000);
  await eventually(async () => expect((await view()).waiting).toBe(0), 'the line empty');
  expect(await kv.get(STUDENTS_WAITING_KEY)).toBe('0');
  // Cool again: three cool looks end the drain, and the flag expires.
  await eventually(
    async () => expect(await kv.get(STUDENTS_WAITING_KEY)).toBeNull(),
    'background work free to run',
    30_000,
  );
});

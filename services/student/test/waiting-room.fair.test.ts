import { REVOCATIONS_FILLED_KEY, createMemoryStore } from '@readiness/kit/cache';
import { rows } from '@readiness/kit/db';
import { eventually } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { adminJson, inviteStudent, useStudent, type JsonBody } from './harness';

jest.setTimeout(60_000);

// One process-wide store, as the all-in-one shares it: where `waiting-room:busy` tells the other services.
const kv = createMemoryStore();
// As auth marks it when it has filled the store with the revocations in force (none here).
void kv.set(REVOCATIONS_FILLED_KEY, '1');
// On the memory bus: the line lives in the database, which every replica shares.
const h = useStudent('embedded', { shared: { kv } });

const call = adminJson;
const start = (token: string, url = h.url) => call(url, 'POST', `/api/student/${token}/start`, {});
const ceiling = (ceilingPerMinute: unknown) =>
  call(h.url, 'PUT', '/api/admin/students/waiting-room', { ceilingPerMinute });
/** A line that moves only when the test says: the ceiling at 1 a minute, its one second's credit spent. */
async function holdTheLine() {
  expect((await ceiling(1)).status).toBe(200);
  await h.database.execute(sql`UPDATE waiting_room SET serving = arrivals`);
}

afterEach(async () => {
  await ceiling(null);
});

test('when students wait and one floods their Start, then everyone reads the same line, the admin sees it, the other services are told; every answer keeps the ticket and the flood costs next to nothing; the place survives a new replica', async () => {
  const [first, flooder] = [await inviteStudent(h), await inviteStudent(h)];
  await holdTheLine();
  const ahead = await start(first.token);
  const mine = await start(flooder.token);
  expect([ahead.status, mine.status]).toEqual([202, 202]);

  // Everyone reads the same figures; the admin sees the line; the other services are told that students wait.
  const line = await call(h.url, 'GET', '/api/waiting-room');
  expect(line.json).toMatchObject({ serving: ahead.json.waiting.ticket - 1, perMinute: 1, waiting: 2 });
  const view = await call(h.url, 'GET', '/api/admin/students/waiting-room');
  expect(view.json).toMatchObject({ enabled: true, waiting: 2, ceilingPerMinute: 1, pressure: 'healthy' });
  await eventually(async () => expect(await kv.get('waiting-room:busy')).toBe('2'));

  const floodStarted = performance.now();
  const flood = await h.countQueries(() =>
    Promise.all(Array.from({ length: 200 }, () => start(flooder.token))),
  );
  const floodSeconds = Math.ceil((performance.now() - floodStarted) / 1000);
  expect(new Set(flood.value.map((a) => `${a.status} ${a.json.waiting.ticket}`))).toEqual(
    new Set([`202 ${mine.json.waiting.ticket}`]),
  );
  // At most a read and a ticket look-up for each second the flood lasted, beside the service's own work of those
  // seconds (the line's tick, the outbox relay: 26 statements over a flood of 2 s on a loaded machine), not 200 of
  // each. A loaded machine stretches the flood over more seconds, never to 100 statements.
  expect(flood.queries).toBeLessThan(Math.min(100, 20 + 10 * floodSeconds));

  // Another replica, started after this one's memory is gone: the same ticket, one place behind the first.
  const fresh = await h.startReplica();
  await new Promise((r) => setTimeout(r, 1_100));
  const after = await start(flooder.token, fresh.url);
  expect(after.json.waiting).toMatchObject({ ticket: mine.json.waiting.ticket, ahead: 1 });
});

test('when an arrival holds the line’s lock, then a student whose turn came starts all the same, and the arrival gets its ticket once the lock is let go', async () => {
  const [waited, arriving] = [await inviteStudent(h), await inviteStudent(h)];
  await holdTheLine();
  expect((await start(waited.token)).status).toBe(202);
  // Their turn comes; past the second this replica answers their link from memory.
  await h.database.execute(sql`UPDATE waiting_room SET serving = arrivals`);
  await new Promise((r) => setTimeout(r, 1_100));
  const within = <T>(ms: number, p: Promise<T>) =>
    Promise.race([p, new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), ms))]);

  let arrival: ReturnType<typeof start> | undefined;
  await h.database.transaction(async (tx) => {
    // An arrival's Start in the middle of taking its ticket: the row's lock held until its commit.
    await tx.execute(sql`SELECT 1 FROM waiting_room FOR UPDATE`);
    arrival = start(arriving.token);
    const turn = await within(10_000, start(waited.token));
    expect(turn === 'still waiting' ? turn : turn.status).toBe(201);
    expect(await within(300, arrival)).toBe('still waiting');
  });
  expect((await arrival!).status).toBe(202);
});

test('when students are taking the test, then the line lets in only the room its target leaves: under pressure the target is at most 90 % of those taking it, warm at most those taking it (one in as one finishes); cool, it grows by 1 % a second (2 at least)', async () => {
  for (let i = 0; i < 3; i++) expect((await start((await inviteStudent(h)).token)).status).toBe(201);
  // Those taking the test as the line counts them (the next test shows how).
  const TAKING = sql`waiting_room_taking()`;
  // One replica's adjustment, its second come (in one transaction: the replica's own look waits for the row).
  const adjust = (state: 'pressure' | 'warm' | 'cool', before: ReturnType<typeof sql>, bound = 100) =>
    h.database.transaction(async (tx) => {
      await tx.execute(
        sql`UPDATE waiting_room SET adjusted_at = now() - interval '1 second', pressure_until = NULL,
              warm_until = NULL`,
      );
      await tx.execute(before);
      const [tick] = await rows<{ per_second: number }>(
        tx,
        sql`SELECT per_second FROM waiting_room_tick(${state === 'pressure'}, ${state === 'warm'}, 0.5,
              ${bound}::float8, interval '15 minutes')`,
      );
      // Counted after the look, which marks the turns it served first.
      const [taking] = await rows<{ n: number }>(tx, sql`SELECT ${TAKING}::int AS n`);
      const [row] = await rows<{ in_progress_target: number }>(
        tx,
        sql`SELECT in_progress_target FROM waiting_room`,
      );
      return { taking: taking!.n, perSecond: tick!.per_second, target: row!.in_progress_target };
    });

  // A fast rate before, a target of 10: it grows by two (1 % is less) and the rate is the room left.
  const grown = await adjust('cool', sql`UPDATE waiting_room SET per_second = 50, in_progress_target = 10`);
  expect(grown.taking).toBeGreaterThanOrEqual(3);
  expect([grown.target, grown.perSecond]).toEqual([12, Math.max(0.5, 12 - grown.taking)]);
  // Warm: no growth, and no room beyond those taking the test (the least rate); a target below them stays.
  const warm = await adjust('warm', sql`UPDATE waiting_room SET in_progress_target = 1000`);
  expect([warm.target, warm.perSecond]).toEqual([warm.taking, 0.5]);
  const warmBelow = await adjust('warm', sql`UPDATE waiting_room SET in_progress_target = 2.5`);
  expect([warmBelow.target, warmBelow.perSecond]).toEqual([2.5, 0.5]);
  // Under pressure: at most 90 % of those taking the test, and no room: the least rate. A second of pressure more
  // leaves a target already below that where it is.
  const pressed = await adjust('pressure', sql`UPDATE waiting_room SET in_progress_target = 1000`);
  expect(pressed.target).toBeCloseTo(pressed.taking * 0.9, 6);
  expect(pressed.perSecond).toBe(0.5);
  const still = await adjust('pressure', sql`UPDATE waiting_room SET in_progress_target = 1.5`);
  expect([still.target, still.perSecond]).toEqual([1.5, 0.5]);
  // A large target grows by 1 %; at most a second of the bound beyond those taking the test.
  const large = await adjust('cool', sql`UPDATE waiting_room SET in_progress_target = 1000`, 2000);
  expect([large.target, large.perSecond]).toEqual([1010, 1010 - large.taking]);
  const capped = await adjust('cool', sql`UPDATE waiting_room SET in_progress_target = 1000`);
  expect([capped.target, capped.perSecond]).toEqual([capped.taking + 100, 100]);
  // A replica of the version before (the four-argument tick, pressure only) runs the same controller: cool, 1 %.
  const before = await h.database.transaction(async (tx) => {
    await tx.execute(
      sql`UPDATE waiting_room SET adjusted_at = now() - interval '1 second', pressure_until = NULL,
            warm_until = NULL, in_progress_target = 1000`,
    );
    await tx.execute(sql`SELECT * FROM waiting_room_tick(false, 0.5, 2000::float8, interval '15 minutes')`);
    const [row] = await rows<{ in_progress_target: number }>(
      tx,
      sql`SELECT in_progress_target FROM waiting_room`,
    );
    return row!.in_progress_target;
  });
  expect(before).toBe(1010);
});

test('when a student whose turn came starts, then the line counts them once, by their attempt; a turn served and not yet started counts until its student starts', async () => {
  const [first, second] = [await inviteStudent(h), await inviteStudent(h)];
  await holdTheLine();
  expect((await start(first.token)).status).toBe(202);
  expect((await start(second.token)).status).toBe(202);
  const taking = () =>
    h.database.transaction(
      async (tx) => (await rows<{ n: number }>(tx, sql`SELECT waiting_room_taking()::int AS n`))[0]!.n,
    );
  // Attempts of the tests before this one may still be in progress: what these two add is counted.
  const before = await taking();
  // Both turns come, and the line's next look marks them served.
  await h.database.execute(sql`UPDATE waiting_room SET serving = arrivals`);
  await h.database.execute(
    sql`UPDATE waiting_tickets SET admitted_at = now() WHERE student_id IN (${first.id}::uuid, ${second.id}::uuid)`,
  );
  expect(await taking()).toBe(before + 2);
  // Past the second in which this replica answers their link from memory, the first starts: counted by their
  // attempt now, not by their attempt and their turn; the second still by their turn.
  await new Promise((r) => setTimeout(r, 1_100));
  expect((await start(first.token)).status).toBe(201);
  expect(await taking()).toBe(before + 2);
});

test('when an administrator sets a limit, then it is audited; a bad one is refused (400) with a clear message and the limit stays', async () => {
  const audited = async () =>
    (
      await h.database.execute<{ details: JsonBody }>(
        sql`SELECT details FROM student_audit WHERE action = 'waiting-room.ceiling-changed' ORDER BY id`,
      )
    ).map((r) => r.details.ceilingPerMinute as unknown);
  const before = (await audited()).length;
  expect((await ceiling(300)).status).toBe(200);
  expect((await audited()).slice(before)).toEqual([300]);
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
  expect((await audited()).slice(before)).toEqual([300]);
});

test('when a student’s turn comes and their page never asks (a closed tab), then their turn is held for WAITING_ROOM_HOLD_MINUTES from the moment it came, then given up: they queue again at the back', async () => {
  const [gone, next] = [await inviteStudent(h), await inviteStudent(h)];
  await holdTheLine();
  const left = await start(gone.token);
  expect(left.status).toBe(202);
  // Served without asking: the next look at the line starts the hold.
  await ceiling(600);
  const held = async () =>
    (
      await h.database.execute<{ admitted: boolean }>(
        sql`SELECT admitted_at IS NOT NULL AS admitted FROM waiting_tickets WHERE student_id = ${gone.id}`,
      )
    )[0]?.admitted;
  await eventually(async () => (await start(next.token)).status === 201, 'another student let in');
  await eventually(async () => (await held()) === true, 'the hold started');
  // Fifteen minutes on, the look gives it up; asking then takes a ticket behind everyone already in line.
  await h.database.execute(
    sql`UPDATE waiting_tickets SET admitted_at = now() - interval '16 minutes' WHERE student_id = ${gone.id}`,
  );
  await start((await inviteStudent(h)).token);
  await eventually(async () => (await held()) === undefined, 'the hold given up');
  await holdTheLine();
  const back = await start(gone.token);
  expect([back.status, back.json.waiting.ticket > left.json.waiting.ticket]).toEqual([202, true]);
});

/** The `line` events of the line's stream on `url`, as they come, until `count` are heard or the stream ends. */
async function lineEvents(url: string, count: number) {
  const response = await fetch(`${url}/api/waiting-room/events`);
  const heard: Array<{ at: number; line: JsonBody }> = [];
  if (response.status !== 200 || !response.body) return { response, heard, ended: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let ended = false;
  while (heard.length < count) {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    text += decoder.decode(value, { stream: true });
    for (const m of [...text.matchAll(/^event: line\ndata: (.*)$/gm)].slice(heard.length))
      heard.push({ at: Date.now(), line: JSON.parse(m[1]!) as JsonBody });
  }
  await reader.cancel().catch(() => undefined);
  return { response, heard, ended };
}

test('when a gateway follows the line, then it hears what GET /api/waiting-room answers, at once and every second; past the replica’s 64 followers one is refused (429); a draining replica ends its streams', async () => {
  const [first, second] = [await inviteStudent(h), await inviteStudent(h)];
  await holdTheLine();
  expect((await start(first.token)).status).toBe(202);
  expect((await start(second.token)).status).toBe(202);
  const polled = (await call(h.url, 'GET', '/api/waiting-room')).json;

  const began = Date.now();
  const { response, heard } = await lineEvents(h.url, 3);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(heard[0]!.line).toMatchObject({ serving: polled.serving, perMinute: 1, waiting: 2 });
  expect(typeof heard[0]!.line.serverNow).toBe('string');
  expect(heard[0]!.at - began).toBeLessThan(1_000);
  // Every second after that.
  expect(heard[2]!.at - heard[0]!.at).toBeGreaterThan(1_500);
  expect(heard[2]!.at - heard[0]!.at).toBeLessThan(3_500);

  // 64 followers at most on one replica: the next one is refused and told when to come back. Opened one at a time
  // until refused: the follower above may still be leaving, so 63 or 64 of these are let in.
  const held: Response[] = [];
  let refused: Response | undefined;
  while (!refused && held.length < 70) {
    const response = await fetch(`${h.url}/api/waiting-room/events`);
    held.push(response);
    if (response.status === 429) refused = response;
    else expect(response.status).toBe(200);
  }
  expect(held.length - 1).toBeGreaterThanOrEqual(63);
  expect(held.length - 1).toBeLessThanOrEqual(64);
  expect(refused?.headers.get('retry-after')).toBe('5');
  await Promise.all(held.map((r) => r.body?.cancel()));

  // A replica that drains ends its followers' streams: they come back to another.
  const replica = await h.startReplica();
  const following = lineEvents(replica.url, 1_000);
  await new Promise((r) => setTimeout(r, 500));
  await replica.stop();
  const { heard: before, ended } = await following;
  expect(ended).toBe(true);
  expect(before.length).toBeGreaterThanOrEqual(1);
});

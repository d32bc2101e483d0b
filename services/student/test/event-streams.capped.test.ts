import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import {
  openAttemptStream,
  startAttempt,
  studentCall,
  useStudent,
  type AttemptStream,
  type JsonBody,
} from './harness';

jest.setTimeout(60_000);

const h = useStudent('embedded', {
  config: {
    ATTEMPT_STREAM_CHECK_MS: 200,
    SUBMIT_RESULT_WAIT_MS: 0,
    SUBMIT_GRACE_SECONDS: 0,
    DEADLINE_JOB_INTERVAL_MS: 200,
    ATTEMPT_STREAMS_PER_LINK: 3,
  },
});

/** A student invited who pressed Start: their link and attempt. */
const started = () => startAttempt(h, 'Streams');

const closeAll = (streams: AttemptStream[]) => Promise.all(streams.map((s) => s.close()));

async function expectRefused(stream: AttemptStream) {
  expect(stream.res.status).toBe(429);
  expect(stream.res.headers.get('content-type')).toMatch(/json/);
  expect(stream.res.headers.get('retry-after')).toBe('30');
  const body = (await stream.res.json()) as JsonBody;
  expect(body.code).toBe('too_many_streams');
  return body.message as string;
}

/** Opens streams until one is answered 200 (the server has noticed the closed ones by then). */
async function openOnceFree(base: string, token: string, headers: Record<string, string> = {}) {
  let stream: AttemptStream | undefined;
  await eventually(async () => {
    stream = await openAttemptStream(base, token, headers);
    if (stream.res.status === 200) return true;
    await stream.res.body?.cancel();
    return false;
  }, 'a place freed by the closed streams');
  return stream!;
}

describe('event streams per link', () => {
  test('a burst of parallel opens on one link holds exactly the cap; the rest are refused 429 with Retry-After, and a closed tab frees its place', async () => {
    const s = await started();
    const burst = await Promise.all(Array.from({ length: 12 }, () => openAttemptStream(h.url, s.token)));
    const held = burst.filter((b) => b.res.status === 200);
    const refused = burst.filter((b) => b.res.status !== 200);
    expect(held).toHaveLength(3);
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(await expectRefused(r)).toMatch(/too many tabs \(at most 3\)/);
    // The three held streams are live: each is told the attempt.
    await eventually(
      () => held.every((b) => b.messages.length === 1),
      'the first message on every held stream',
    );

    await held[0]!.close();
    const reopened = await openOnceFree(h.url, s.token);
    await eventually(() => reopened.messages.length === 1, 'the reopened tab is told the attempt');
    expect(await expectRefused(await openAttemptStream(h.url, s.token))).toMatch(/tabs/);
    // Another student's link is not affected.
    const other = await started();
    const theirs = await openAttemptStream(h.url, other.token);
    expect(theirs.res.status).toBe(200);
    await closeAll([...held, reopened, theirs]);
  });
});

describe('event streams end with the attempt', () => {
  async function threeTabs(token: string) {
    const tabs = await Promise.all([0, 1, 2].map(() => openAttemptStream(h.url, token)));
    for (const t of tabs) expect(t.res.status).toBe(200);
    await eventually(() => tabs.every((t) => t.messages.length === 1), 'the first message');
    return tabs;
  }

  async function expectEndedAndFreed(token: string, tabs: AttemptStream[]) {
    await eventually(() => tabs.every((t) => t.ended()), 'every tab ended by the server', 5_000);
    for (const t of tabs) expect(t.messages.at(-1)).toMatchObject({ status: 'closed' });
    // The places are given back (the server notices the ended tabs' sockets close a moment after the tabs see the
    // end), and a page opened after the end is told `closed`, ended at once and keeps no place: four in a row, one
    // more than the cap, each get through.
    for (let i = 0; i < 4; i++) {
      const after = await openOnceFree(h.url, token);
      await eventually(() => after.ended(), 'the stream opened after the end ended');
      expect(after.messages).toEqual([expect.objectContaining({ status: 'closed' })]);
    }
  }

  test('submitted by the student', async () => {
    const s = await started();
    const tabs = await threeTabs(s.token);
    const submit = await studentCall(h, 'POST', `/api/student/${s.token}/submit`, {
      answers: [{ questionId: 'q1', answer: 'yes' }],
      timeSpent: 3,
      startedAt: new Date().toISOString(),
    });
    expect([200, 202]).toContain(submit.status);
    await expectEndedAndFreed(s.token, tabs);
  });

  test('ended by an administrator', async () => {
    const s = await started();
    const tabs = await threeTabs(s.token);
    expect((await h.call('POST', `/api/admin/live/${s.attemptId}/end`)).status).toBe(200);
    await expectEndedAndFreed(s.token, tabs);
  });

  test('finalised by the deadline job', async () => {
    const s = await started();
    const tabs = await threeTabs(s.token);
    await h.database.execute(
      sql`UPDATE attempts SET deadline_at = now() - interval '1 minute' WHERE id = ${s.attemptId}`,
    );
    await expectEndedAndFreed(s.token, tabs);
  });

  test('erased with the student', async () => {
    const s = await started();
    const tabs = await threeTabs(s.token);
    expect((await h.call('DELETE', `/api/admin/students/${s.id}`)).status).toBe(200);
    await eventually(() => tabs.every((t) => t.ended()), 'every tab ended by the server', 5_000);
    expect((await openAttemptStream(h.url, s.token)).res.status).toBe(404);
  });
});

describe('event streams per client address', () => {
  test('one address holds at most its cap over every link; a forged X-Forwarded-For does not count as another address when no proxy is trusted', async () => {
    const replica = await h.startReplica({ ATTEMPT_STREAM_CHECK_MS: 200, ATTEMPT_STREAMS_PER_ADDRESS: 4 });
    try {
      const students = await Promise.all([0, 1, 2].map(() => started()));
      const streams = await Promise.all(
        students.flatMap((s) => [0, 1].map(() => openAttemptStream(replica.url, s.token))),
      );
      const held = streams.filter((x) => x.res.status === 200);
      expect(held).toHaveLength(4);
      for (const r of streams.filter((x) => x.res.status !== 200)) {
        expect(await expectRefused(r)).toMatch(/At most 4 test pages .* one network address/);
      }
      const fresh = await started();
      for (let i = 0; i < 5; i += 1) {
        const forged = await openAttemptStream(replica.url, fresh.token, {
          'x-forwarded-for': `203.0.113.${i + 1}`,
        });
        await expectRefused(forged);
      }
      await held[0]!.close();
      const freed = await openOnceFree(replica.url, fresh.token);
      await closeAll([...held, freed]);
    } finally {
      await replica.stop();
    }
  });

  test('behind a trusted proxy (the gateway) each forwarded client is counted apart, and an entry the client prepends changes nothing', async () => {
    const replica = await h.startReplica({
      ATTEMPT_STREAM_CHECK_MS: 200,
      ATTEMPT_STREAMS_PER_ADDRESS: 2,
      TRUSTED_PROXIES: 'loopback',
    });
    try {
      const students = await Promise.all([0, 1, 2, 3].map(() => started()));
      const classroom = { 'x-forwarded-for': '198.51.100.7' };
      const a = await openAttemptStream(replica.url, students[0]!.token, classroom);
      const b = await openAttemptStream(replica.url, students[1]!.token, classroom);
      expect([a.res.status, b.res.status]).toEqual([200, 200]);
      await expectRefused(await openAttemptStream(replica.url, students[2]!.token, classroom));
      // The gateway appends the address it saw: a forged entry before it is not the client's address.
      await expectRefused(
        await openAttemptStream(replica.url, students[2]!.token, {
          'x-forwarded-for': '192.0.2.99, 198.51.100.7',
        }),
      );
      const elsewhere = await openAttemptStream(replica.url, students[2]!.token, {
        'x-forwarded-for': '198.51.100.8',
      });
      expect(elsewhere.res.status).toBe(200);
      // An IPv6 client counts by its /64: a fresh address per stream from one network is the same client.
      const v6 = await Promise.all(
        ['2001:db8:7:1::a', '2001:db8:7:1::b', '2001:db8:7:1:ffff::c'].map((ip, i) =>
          openAttemptStream(replica.url, students[i]!.token, { 'x-forwarded-for': ip }),
        ),
      );
      expect(v6.map((v) => v.res.status).sort()).toEqual([200, 200, 429]);
      const otherNetwork = await openAttemptStream(replica.url, students[3]!.token, {
        'x-forwarded-for': '2001:db8:7:2::a',
      });
      expect(otherNetwork.res.status).toBe(200);
      await closeAll([a, b, elsewhere, ...v6, otherNetwork]);
    } finally {
      await replica.stop();
    }
  });
});

describe('event streams per replica', () => {
  test('a replica holds at most ATTEMPT_STREAMS_MAX streams in all; one more is refused until one closes', async () => {
    const replica = await h.startReplica({ ATTEMPT_STREAM_CHECK_MS: 200, ATTEMPT_STREAMS_MAX: 4 });
    try {
      const students = await Promise.all([0, 1, 2, 3, 4, 5].map(() => started()));
      const streams = await Promise.all(students.map((s) => openAttemptStream(replica.url, s.token)));
      const held = streams.filter((x) => x.res.status === 200);
      expect(held).toHaveLength(4);
      for (const r of streams.filter((x) => x.res.status !== 200)) {
        expect(await expectRefused(r)).toMatch(/as many test pages as it can/);
      }
      const metrics = await (await fetch(`${replica.internalUrl}/metrics`)).text();
      expect(metrics).toMatch(/^student_event_streams_refused_total\{cap="total"[^}]*\} 2$/m);
      expect(metrics).toMatch(/^student_event_streams_open\{[^}]*\} 4$/m);
      // The cap is this replica's: the first one still takes streams.
      const onFirst = await openAttemptStream(h.url, students[5]!.token);
      expect(onFirst.res.status).toBe(200);
      await held[0]!.close();
      const freed = await openOnceFree(replica.url, students[5]!.token);
      await closeAll([...held, onFirst, freed]);
    } finally {
      await replica.stop();
    }
  });
});

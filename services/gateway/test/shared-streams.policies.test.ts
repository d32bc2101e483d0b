import http from 'node:http';
import type { Socket } from 'node:net';
import type { Response as ExpressResponse } from 'express';
import { holdTheEventLoopFor } from '@readiness/testing';
import { start, type RunningGateway } from '../src/service';
import { gatewayConfig, silentLogger, startUpstream, type Upstream } from './helpers';

// The waiting room's line as an event stream: every waiting page of a gateway costs the student service nothing, and
// the gateway a write every 5 s, whatever the upstream sends.
let opened = 0;
let serving = 0;
let refusing = false;
const upstreamStreams = new Set<ExpressResponse>();
let student: Upstream;
let gateway: RunningGateway;

beforeAll(async () => {
  student = await startUpstream((app) => {
    app.get('/api/waiting-room/events', (req, res) => {
      opened += 1;
      if (refusing) {
        res.status(503).json({ message: 'Not ready' });
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('retry: 1000\n\n: a comment\n\n');
      const send = () => {
        serving += 1;
        res.write(`event: line\ndata: ${JSON.stringify({ serving, perMinute: 60, waiting: 3 })}\n\n`);
      };
      send();
      // Far more often than any page is told.
      const timer = setInterval(send, 100);
      upstreamStreams.add(res);
      req.on('close', () => {
        clearInterval(timer);
        upstreamStreams.delete(res);
      });
    });
  });
  gateway = await start({
    config: gatewayConfig({
      STUDENT_URL: student.url,
      LINE_STREAMS_MAX: '20',
      RATE_LIMIT_STUDENT: '5',
      RATE_LIMIT_API: '5',
      SHUTDOWN_GRACE_SECONDS: '4',
    }),
    logger: silentLogger,
  });
});

afterAll(async () => {
  await gateway.stop();
  await student.close();
});

interface Followed {
  response: Response;
  /** The `line` events heard, each with when it came. */
  lines: Array<{ at: number; serving: number }>;
  raw: string;
  /** The body of an answer other than 200. */
  refusal?: Record<string, unknown>;
  ended: Promise<void>;
  close(): void;
}

async function follow(on: RunningGateway = gateway, headers: Record<string, string> = {}): Promise<Followed> {
  const controller = new AbortController();
  const response = await fetch(`${on.url}/api/waiting-room/events`, { signal: controller.signal, headers });
  const followed: Followed = {
    response,
    lines: [],
    raw: '',
    ended: Promise.resolve(),
    close: () => controller.abort(),
  };
  if (response.status !== 200 || !response.body) {
    // A refusal is read to its end, as a browser does, so its connection is free again.
    followed.refusal = (await response.json()) as Record<string, unknown>;
    return followed;
  }
  const decoder = new TextDecoder();
  followed.ended = (async () => {
    try {
      for await (const chunk of response.body!) {
        followed.raw += decoder.decode(chunk, { stream: true });
        const datas = [...followed.raw.matchAll(/^data: (.*)$/gm)].map(
          (m) => JSON.parse(m[1]!) as { serving: number },
        );
        while (followed.lines.length < datas.length)
          followed.lines.push({ at: Date.now(), serving: datas[followed.lines.length]!.serving });
      }
    } catch {
      // Closed by the test.
    }
  })();
  return followed;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `done()` holds, or fails after `withinMs`: a loaded machine's timers may come late. */
async function until(done: () => boolean, withinMs: number, what: string) {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > withinMs) throw new Error(`not within ${withinMs} ms: ${what}`);
    await sleep(50);
  }
}

test('when many waiting pages follow the line, then the student service is followed once, each page is told at once and then every 5 s at a moment of its own, and no limit of one address counts them', async () => {
  opened = 0;
  const began = Date.now();
  const pages = await Promise.all(Array.from({ length: 15 }, () => follow()));
  expect(pages.map((p) => p.response.status)).toEqual(Array(15).fill(200));
  const headers = pages[0]!.response.headers;
  expect(headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(headers.get('cache-control')).toBe('no-store');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  await until(() => pages.every((p) => p.lines.length >= 3), 20_000, 'every page told three times');
  const heardFor = Date.now() - began;
  expect(opened).toBe(1);
  for (const page of pages) {
    // Told at once, then in its slot of the next 5 s, then every 5 s after that, where the upstream sent ten events a
    // second: at most one more than once per 5 s.
    expect(page.lines[0]!.at - began).toBeLessThan(2_000);
    expect(page.lines.length).toBeLessThanOrEqual(Math.ceil(heardFor / 5_000) + 1);
    for (let i = 2; i < page.lines.length; i++) {
      expect(page.lines[i]!.at - page.lines[i - 1]!.at).toBeGreaterThan(3_500);
      // A loaded machine's gateway may stretch its round, up to 8 s.
      expect(page.lines[i]!.at - page.lines[i - 1]!.at).toBeLessThan(9_000);
    }
    // Always the newest figures, never the upstream's retry field or comments.
    expect(page.lines[2]!.serving).toBeGreaterThan(page.lines[1]!.serving + 10);
    expect(page.raw).not.toContain('retry: 1000');
    expect(page.raw).not.toContain('a comment');
    expect(page.raw).toMatch(/^retry: \d+$/m);
  }
  // Pages that came together are written at different moments (a slot of 100 ms each, at random), not in one turn:
  // the pages whose turn came do not all press Start at once.
  const seconds = new Set(pages.map((p) => Math.floor((p.lines[1]!.at - began) / 1_000)));
  expect(seconds.size).toBeGreaterThanOrEqual(3);

  // Past the gateway's most (20), a page is answered 503 and polls instead.
  const more = await Promise.all(Array.from({ length: 6 }, () => follow()));
  expect(more.map((p) => p.response.status).sort()).toEqual([200, 200, 200, 200, 200, 503]);
  const refused = more.find((p) => p.response.status === 503)!.response;
  expect(refused.headers.get('retry-after')).toBe('5');
  expect(more.find((p) => p.response.status === 503)!.refusal).toMatchObject({ code: 'too_many_streams' });

  // When the last page leaves, the gateway stops following the student service.
  for (const page of [...pages, ...more]) page.close();
  await until(() => upstreamStreams.size === 0, 5_000, 'the upstream stream closed');
}, 40_000);

test('when one address opens more streams than it may, then only its extra pages are refused (429, they poll), a forged X-Forwarded-For does not count as another address, and a page that leaves frees its place', async () => {
  const strict = await start({
    config: gatewayConfig({
      STUDENT_URL: student.url,
      LINE_STREAMS_PER_ADDRESS: '3',
      // The test's fetch keeps an aborted stream's connection open: its stop need not wait 10 s for it.
      SHUTDOWN_GRACE_SECONDS: '1',
    }),
    logger: silentLogger,
  });
  try {
    const pages = await Promise.all(
      Array.from({ length: 3 }, (_, i) => follow(strict, { 'x-forwarded-for': `203.0.113.${i + 1}` })),
    );
    expect(pages.map((p) => p.response.status)).toEqual([200, 200, 200]);
    // The same socket's address behind a made-up proxy chain: still the fourth page of 127.0.0.1.
    const forged = await follow(strict, { 'x-forwarded-for': '198.51.100.7, 10.0.0.1' });
    expect(forged.response.status).toBe(429);
    expect(forged.response.headers.get('retry-after')).toBe('5');
    expect(forged.refusal).toMatchObject({
      code: 'too_many_streams',
      message: 'Too many pages follow the line from this address',
    });
    await until(() => pages.every((p) => p.lines.length >= 1), 5_000, 'the admitted pages told the line');
    pages[0]!.close();
    // Its place is free once the gateway has seen it go.
    const left = Date.now();
    let again = await follow(strict);
    while (again.response.status !== 200 && Date.now() - left < 5_000) {
      await sleep(100);
      again = await follow(strict);
    }
    expect(again.response.status).toBe(200);
    for (const page of [...pages, again]) page.close();
  } finally {
    await strict.stop();
  }
}, 30_000);

test('when the gateway is busy (its passes come late), then its round stretches to tell the line less often, but each page is still told within 8 s, before it would poll', async () => {
  const pages = await Promise.all(Array.from({ length: 5 }, () => follow()));
  await until(() => pages.every((p) => p.lines.length >= 1), 5_000, 'every page told at once');
  // The event loop held 400 ms of every 500 ms for 18 s: a pass every 100 ms comes every 400–500 ms, so a round of
  // one slot a pass would take 20–25 s, and the pages, silent for 10 s, would poll.
  const began = Date.now();
  await holdTheEventLoopFor(18_000, { holdMs: 400, gapMs: 100 });
  await sleep(200);
  for (const page of pages) {
    const told = page.lines.filter((line) => line.at > began).length;
    // A round of 8 s: two or three times in 18 s; not every 5 s (four times) while the gateway is this busy.
    expect(told).toBeGreaterThanOrEqual(2);
    expect(told).toBeLessThanOrEqual(3);
  }
  for (const page of pages) page.close();
  await until(() => upstreamStreams.size === 0, 5_000, 'the upstream stream closed');
}, 40_000);

test('when the student service ends the stream, then the gateway follows it again and its pages keep their connection and hear the line', async () => {
  opened = 0;
  const page = await follow();
  await until(
    () => opened === 1 && upstreamStreams.size === 1 && page.lines.length >= 1,
    5_000,
    'followed once',
  );
  const before = page.lines[0]!.serving;
  for (const res of upstreamStreams) res.end();
  // Followed again after a second; the page is told at its next slot, on the same connection.
  await until(() => opened === 2, 8_000, 'followed again');
  await until(() => page.lines.some((line) => line.serving > before + 5), 10_000, 'newer figures heard');
  expect(opened).toBe(2);
  page.close();
  await until(() => upstreamStreams.size === 0, 5_000, 'the upstream stream closed');
}, 30_000);

test('when the student service stays away, then its pages are not told the old figures as new: they hear nothing once those are 3 s old (and poll), and hear the line again when it is back', async () => {
  const page = await follow();
  await sleep(300);
  refusing = true;
  for (const res of upstreamStreams) res.end();
  await sleep(3_500);
  const heard = page.lines.length;
  // Refused three times over (1 s, 2 s): nothing written since the figures grew 3 s old.
  await sleep(5_500);
  expect(page.lines.length).toBe(heard);
  refusing = false;
  // Followed again at the next try (the wait doubled to 8 s by now), then told in the page's slot within 5 s.
  const back = Date.now();
  while (page.lines.length === heard && Date.now() - back < 16_000) await sleep(200);
  expect(page.lines.length).toBeGreaterThan(heard);
  page.close();
}, 35_000);

test('when the gateway drains, then its pages’ streams and their connections end at once (their EventSource comes back to another gateway)', async () => {
  const page = await follow();
  // A page as a browser holds it: a kept-alive connection, which the gateway must close with the stream.
  const agent = new http.Agent({ keepAlive: true });
  const browser = http.get(`${gateway.url}/api/waiting-room/events`, { agent });
  const socket = await new Promise<Socket>((resolve) => browser.on('socket', resolve));
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
  await new Promise((resolve) => browser.on('response', (res) => res.once('data', resolve)));
  const stopping = Date.now();
  const stopped = gateway.stop();
  await page.ended;
  expect(page.lines.length).toBeGreaterThanOrEqual(1);
  // Well within the grace period (4 s here), which a connection left open would use up.
  expect((await closed) - stopping).toBeLessThan(2_000);
  await stopped;
  agent.destroy();
  gateway = await start({
    config: gatewayConfig({ STUDENT_URL: student.url }),
    logger: silentLogger,
  });
});

import http from 'node:http';
import { start, type RunningGateway } from '../src/service';
import { gatewayConfig, silentLogger, startUpstream, type Upstream } from './helpers';

// Students arriving at the peak wait their turn at the gateway, two at a time here; the students already taking the
// test go straight through.
const held: Array<{ path: string; answer: () => void }> = [];
const seen: string[] = [];
const submits: Array<() => void> = [];
let student: Upstream;
let gateway: RunningGateway;

beforeAll(async () => {
  student = await startUpstream((app) => {
    app.use((req, res) => {
      seen.push(`${req.method} ${req.path}`);
      // The arrivals' calls are held until the test answers them; every other call is answered at once.
      if (/\/(?:start|assessment)$|^\/api\/student\/[^/]+$/.test(req.path)) {
        held.push({ path: req.path, answer: () => res.json({ ok: true }) });
      } else if (req.path.endsWith('/submit')) {
        // A submit waits for its result before it is answered.
        submits.push(() => res.json({ scored: true }));
      } else {
        res.json({ saved: true });
      }
    });
  });
  gateway = await start({
    config: gatewayConfig({
      STUDENT_URL: student.url,
      STUDENT_ARRIVALS_IN_FLIGHT: '2',
      RATE_LIMIT_STUDENT: '100000',
      RATE_LIMIT_STUDENT_WRITES: '100000',
    }),
    logger: silentLogger,
  });
});
afterAll(async () => {
  for (const h of held.splice(0)) h.answer();
  for (const answer of submits.splice(0)) answer();
  await gateway.stop();
  await student.close();
});

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};
const call = (method: string, path: string) =>
  fetch(`${gateway.url}${path}`, {
    method,
    headers: method === 'GET' ? {} : { 'content-type': 'application/json' },
    body: method === 'GET' ? undefined : '{}',
  });

test('when five students arrive while two arrivals are in flight, then the others wait at the gateway in the order they came, an autosave of a student already in the test goes straight through, and each answer lets the next one in', async () => {
  // One after the other (a few milliseconds apart, so the gateway meets them in this order).
  const arriving: Array<Promise<Response>> = [];
  for (const [method, path] of [
    ['GET', '/api/student/a'],
    ['GET', '/api/student/b/assessment'],
    ['POST', '/api/student/c/start'],
    ['GET', '/api/student/d/assessment'],
    ['POST', '/api/student/e/start'],
  ] as const) {
    arriving.push(call(method, path));
    await new Promise((r) => setTimeout(r, 40));
  }
  await until(() => held.length === 2);
  await new Promise((r) => setTimeout(r, 100));
  expect(held.map((h) => h.path)).toEqual(['/api/student/a', '/api/student/b/assessment']);

  // A student in the test saves while the arrivals wait: answered at once.
  const saved = await call('PUT', '/api/student/z/answers');
  expect(await saved.json()).toEqual({ saved: true });
  expect(seen).toContain('PUT /api/student/z/answers');

  // Each answer lets the next arrival in, in order.
  for (const next of ['/api/student/c/start', '/api/student/d/assessment', '/api/student/e/start']) {
    held.shift()!.answer();
    await until(() => held.some((h) => h.path === next));
  }
  for (const h of held.splice(0)) h.answer();
  expect((await Promise.all(arriving)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
});

test('when a waiting arrival gives up, then its place goes to the next one and the student service never sees it', async () => {
  const first = [call('GET', '/api/student/f'), call('GET', '/api/student/g')];
  await until(() => held.length === 2);
  // A third waits, then its browser goes away.
  const gone = http.get(`${gateway.url}/api/student/h`);
  gone.on('error', () => undefined);
  await new Promise((r) => setTimeout(r, 100));
  gone.destroy();
  await new Promise((r) => setTimeout(r, 50));
  const fourth = call('GET', '/api/student/i');
  held.shift()!.answer();
  await until(() => held.some((h) => h.path === '/api/student/i'));
  expect(seen).not.toContain('GET /api/student/h');
  for (const h of held.splice(0)) h.answer();
  expect((await Promise.all([...first, fourth])).map((r) => r.status)).toEqual([200, 200, 200]);
});

test('when hundreds of submits wait for their results, then each holds a connection of its own to the student service and an autosave still goes straight through', async () => {
  // More than the 256 connections the gateway once kept to a service: the calls after them queued at the gateway.
  const waiting = Array.from({ length: 300 }, (_, i) => call('POST', `/api/student/s${i}/submit`));
  await until(() => submits.length === 300);
  const saved = await call('PUT', '/api/student/s0/answers');
  expect([saved.status, await saved.json()]).toEqual([200, { saved: true }]);
  for (const answer of submits.splice(0)) answer();
  expect((await Promise.all(waiting)).map((r) => r.status)).toEqual(Array(300).fill(200));
});

import { start, type RunningGateway } from '../src/service';
import { gatewayConfig, silentLogger, startUpstream, type Upstream } from './helpers';

// The waiting room's line, which thousands of waiting pages follow: the gateway asks the student service once a
// second and answers everyone else from memory.
let asked = 0;
let status = 200;
let student: Upstream;
let gateway: RunningGateway;

beforeAll(async () => {
  student = await startUpstream((app) => {
    app.get('/api/waiting-room', (_req, res) => {
      asked += 1;
      res
        .status(status)
        .json(status === 200 ? { serving: asked, perMinute: 60, waiting: 3 } : { message: 'No' });
    });
  });
  gateway = await start({
    // The limits as a school behind one address meets them: its thousand waiting pages are not counted.
    config: gatewayConfig({ STUDENT_URL: student.url, RATE_LIMIT_STUDENT: '100', RATE_LIMIT_API: '100' }),
    logger: silentLogger,
  });
});

afterAll(async () => {
  await gateway.stop();
  await student.close();
});

const line = () => fetch(`${gateway.url}/api/waiting-room`);

test('when a thousand waiting pages ask for the line at once, then the student service is asked once a second at most and the pages share its figures, marked public for a second', async () => {
  asked = 0;
  const began = performance.now();
  const answers = await Promise.all(Array.from({ length: 1_000 }, line));
  const seconds = Math.ceil((performance.now() - began) / 1_000);
  expect(asked).toBeLessThanOrEqual(seconds);
  expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
  expect(answers[0]!.headers.get('cache-control')).toBe('public, max-age=1');
  expect(answers[0]!.headers.get('x-content-type-options')).toBe('nosniff');
  const bodies = await Promise.all(answers.map((a) => a.json()));
  expect(bodies[0]).toEqual({ serving: 1, perMinute: 60, waiting: 3 });
  expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(asked);

  // A second later the line is asked again, once.
  await new Promise((r) => setTimeout(r, 1_050));
  const before = asked;
  await Promise.all(Array.from({ length: 20 }, line));
  expect(asked).toBe(before + 1);
});

test('when the student service answers an error, then it is passed on, never kept: the next page asks again', async () => {
  await new Promise((r) => setTimeout(r, 1_050));
  status = 503;
  asked = 0;
  const failed = await line();
  expect([failed.status, failed.headers.get('cache-control')]).toEqual([503, 'no-store']);
  status = 200;
  expect((await line()).status).toBe(200);
  expect(asked).toBe(2);
});

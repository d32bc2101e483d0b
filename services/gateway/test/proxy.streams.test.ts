import http from 'node:http';
import { start, type RunningGateway } from '../src/service';
import { gatewayConfig, silentLogger, startUpstream, type Upstream } from './helpers';

/** The pool of connections the gateway keeps to a service (UPSTREAM_MAX_SOCKETS), and more streams than it holds. */
const POOL = 32;
const STREAMS = 40;

describe('gateway: a student page following its attempt (server-sent events)', () => {
  const open: http.ServerResponse[] = [];
  /** The X-Forwarded-For each stream reached the student service with. */
  const forwardedFor: unknown[] = [];
  let student: Upstream;
  let gateway: RunningGateway;

  beforeAll(async () => {
    student = await startUpstream((app) => {
      app.get('/api/student/:token/events', (req, res) => {
        forwardedFor.push(req.headers['x-forwarded-for']);
        if (req.params.token === 'over-the-cap') {
          res
            .set('Retry-After', '30')
            .status(429)
            .json({ message: 'too many tabs', code: 'too_many_streams' });
          return;
        }
        if (req.params.token === 'attempt-over') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end('event: attempt\ndata: {"status":"closed"}\n\n');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`event: attempt\ndata: {"token":"${req.params.token}"}\n\n`);
        open.push(res);
      });
      app.get('/api/student/:token', (_req, res) => {
        res.json({ student: { name: 'Ada', email: 'ada@example.edu' } });
      });
    });
    gateway = await start({
      config: gatewayConfig({
        STUDENT_URL: student.url,
        // Far below a stream's silences: a pooled call would be cut with a 504 after it.
        UPSTREAM_TIMEOUT_MS: '500',
        UPSTREAM_MAX_SOCKETS: String(POOL),
        RATE_LIMIT_STUDENT: '100000',
        RATE_LIMIT_STUDENT_TOKEN: '100000',
      }),
      logger: silentLogger,
    });
  });

  afterAll(async () => {
    for (const res of open) res.destroy();
    await gateway.stop();
    await student.close();
  });

  /** Opens a stream through the gateway and resolves with its answer once the first event arrived. */
  const follow = (token: string) =>
    new Promise<{ res: http.IncomingMessage; text: () => string; req: http.ClientRequest }>(
      (resolve, reject) => {
        const req = http.get(`${gateway.url}/api/student/${token}/events`, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            const first = text === '';
            text += chunk;
            if (first) resolve({ res, text: () => text, req });
          });
        });
        req.on('error', reject);
      },
    );

  it('when more pages follow than the pool holds, then each stream stays open past the call timeout, and other calls are still answered', async () => {
    const pages = await Promise.all(Array.from({ length: STREAMS }, (_, i) => follow(`token-${i}`)));
    for (const [i, p] of pages.entries()) {
      expect(p.res.statusCode).toBe(200);
      expect(p.res.headers['content-type']).toBe('text/event-stream');
      expect(p.text()).toContain(`"token":"token-${i}"`);
    }
    // Every stream holds a connection of its own; a plain look-up still gets one from the pool at once.
    const lookUp = await fetch(`${gateway.url}/api/student/someone`, { signal: AbortSignal.timeout(2_000) });
    expect(lookUp.status).toBe(200);

    // Silent for longer than the call timeout: the streams are not cut, and an event sent now arrives.
    await new Promise((r) => setTimeout(r, 1_200));
    const last = open[open.length - 1]!;
    last.write('event: attempt\ndata: {"later":true}\n\n');
    await new Promise((r) => setTimeout(r, 200));
    const arrived = pages.filter((p) => p.text().includes('"later":true'));
    expect(arrived).toHaveLength(1);
    expect(pages.every((p) => !p.res.destroyed)).toBe(true);
    for (const p of pages) p.req.destroy();
  });

  it("passes the student service's refusal of a stream over its cap (429, JSON, Retry-After) and its end of a finished attempt's stream; the service is told the socket's address, never a client's forged X-Forwarded-For", async () => {
    forwardedFor.length = 0;
    const refused = await fetch(`${gateway.url}/api/student/over-the-cap/events`, {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toEqual({ message: 'too many tabs', code: 'too_many_streams' });
    // No proxy is trusted in front of this gateway: the address is the socket's, whatever the client wrote.
    expect(forwardedFor).toEqual(['127.0.0.1']);

    const over = await fetch(`${gateway.url}/api/student/attempt-over/events`, {
      signal: AbortSignal.timeout(2_000),
    });
    expect(over.status).toBe(200);
    expect(await over.text()).toContain('"status":"closed"');
  });
});

import http from 'node:http';
import { start, type RunningGateway } from '../src/service';
import { gatewayConfig, silentLogger, startUpstream, type Upstream } from './helpers';

/** More open streams than the pool of connections the gateway keeps to a service (256). */
const STREAMS = 300;

describe('gateway: a student page following its attempt (server-sent events)', () => {
  const open: http.ServerResponse[] = [];
  let student: Upstream;
  let gateway: RunningGateway;

  beforeAll(async () => {
    student = await startUpstream((app) => {
      app.get('/api/student/:token/events', (req, res) => {
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
});

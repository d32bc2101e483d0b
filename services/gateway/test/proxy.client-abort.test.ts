import http from 'node:http';
import { Writable } from 'node:stream';
import { createLogger } from '@readiness/kit/logger';
import { start, type RunningGateway } from '../src/service';
import { gatewayConfig, startUpstream, type Upstream } from './helpers';

interface LogLine {
  level: string;
  msg: string;
  upstream?: string;
}

/** Resolves once `count` requests have reached the upstream. */
function arrivals() {
  let count = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  return {
    arrived() {
      count += 1;
      for (const w of waiters.filter((x) => x.count <= count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
    until: (n: number) =>
      new Promise<void>((resolve) => {
        if (count >= n) resolve();
        else waiters.push({ count: n, resolve });
      }),
  };
}

const metricValue = (metrics: string, name: string, upstream: string) => {
  const line = metrics
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && l.includes(`upstream="${upstream}"`));
  return line ? Number(line.split(' ').pop()) : 0;
};

describe('gateway proxy when the caller goes away', () => {
  const lines: LogLine[] = [];
  const seen = arrivals();
  const hanging: http.ServerResponse[] = [];
  let auth: Upstream;
  let gateway: RunningGateway;

  beforeAll(async () => {
    // Holds every request open: the caller gives up first. Public auth routes need no token.
    auth = await startUpstream((app) => {
      app.use((req, res) => {
        req.resume();
        hanging.push(res);
        seen.arrived();
        if (req.path === '/api/auth/stream') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('first part of a long answer');
        }
      });
    });
    const logger = createLogger({
      name: 'gateway-test',
      level: 'debug',
      destination: new Writable({
        write(chunk: Buffer, _encoding, callback) {
          for (const text of chunk.toString().split('\n').filter(Boolean))
            lines.push(JSON.parse(text) as LogLine);
          callback();
        },
      }),
    });
    gateway = await start({ config: gatewayConfig({ AUTH_URL: auth.url }), logger });
  });

  afterAll(async () => {
    for (const res of hanging) res.destroy();
    await gateway.stop();
    await auth.close();
  });

  const send = (path: string, body?: { declared: number; sent: string }) => {
    const req = http.request(`${gateway.url}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: body ? { 'content-type': 'text/plain', 'content-length': body.declared } : {},
    });
    req.on('error', () => {
      // The test destroys this request on purpose.
    });
    if (body) req.write(body.sent);
    else req.end();
    return req;
  };

  const settle = async () => {
    // The abort travels gateway → upstream asynchronously; wait until the gateway has seen it through.
    for (let i = 0; i < 50; i += 1) {
      const metrics = await (await fetch(`${gateway.internalUrl}/metrics`)).text();
      if (metricValue(metrics, 'gateway_client_aborted_total', 'auth') >= expectedAborts) return metrics;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return (await fetch(`${gateway.internalUrl}/metrics`)).text();
  };
  let expectedAborts = 0;

  it('when a caller disconnects while the upstream is still working, then it is counted as a client abort and not logged as an upstream failure', async () => {
    const req = send('/api/auth/slow');
    await seen.until(1);
    req.destroy();
    expectedAborts = 1;

    const metrics = await settle();
    expect(metricValue(metrics, 'gateway_client_aborted_total', 'auth')).toBe(1);
    expect(metricValue(metrics, 'gateway_upstream_errors_total', 'auth')).toBe(0);
    expect(lines.filter((l) => l.msg === 'upstream request failed')).toEqual([]);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'debug',
        upstream: 'auth',
        msg: 'client went away before the answer was complete',
      }),
    );
  });

  it('when a caller disconnects halfway through sending a body, then it is a client abort too', async () => {
    const req = send('/api/auth/upload', { declared: 10_000, sent: 'only the start of the body' });
    await seen.until(2);
    req.destroy();
    expectedAborts = 2;

    const metrics = await settle();
    expect(metricValue(metrics, 'gateway_client_aborted_total', 'auth')).toBe(2);
    expect(metricValue(metrics, 'gateway_upstream_errors_total', 'auth')).toBe(0);
    expect(lines.filter((l) => l.msg === 'upstream request failed')).toEqual([]);
  });

  it('when a caller disconnects while the answer is streaming, then it is a client abort too', async () => {
    const received = new Promise<http.ClientRequest>((resolve) => {
      const req = send('/api/auth/stream');
      req.on('response', (res) => res.once('data', () => resolve(req)));
    });
    (await received).destroy();
    expectedAborts = 3;

    const metrics = await settle();
    expect(metricValue(metrics, 'gateway_client_aborted_total', 'auth')).toBe(3);
    expect(metricValue(metrics, 'gateway_upstream_errors_total', 'auth')).toBe(0);
    expect(lines.filter((l) => l.msg === 'upstream request failed')).toEqual([]);
  });
});

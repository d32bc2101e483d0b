import http from 'node:http';
import { UPSTREAMS, matchRoute, type UpstreamName } from '../src/routes';
import { start, type RunningGateway } from '../src/service';
import { createSigner, gatewayConfig, silentLogger, startJwksUpstream, type Upstream } from './helpers';

/** Sends the request target byte for byte: fetch() and `new URL()` would resolve the dot segments first. */
function rawGet(
  base: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: target, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** One path under every prefix of the route table, public and administrative, covering every upstream. */
const PREFIXES = [
  '/api/auth',
  '/api/admin/admins',
  '/api/admin/audit-log',
  '/api/admin/dashboard',
  '/api/admin/results',
  '/api/admin/results/r1/pdf',
  '/api/admin/students',
  '/api/admin/notifications',
  '/api/admin/lti',
  '/api/lti',
  '/api/student',
  '/api/student/tok3n',
  '/api/assessment',
  '/api/assessment/files',
  '/.well-known',
];

const TRICKS = [
  '/x/../../admin/admins',
  '/x/../../admin/students',
  '/..',
  '/./x',
  '/%2e%2e/admin/students',
  '/%2E%2e/%2e%2E/admin/admins',
  '/.%2e/x',
  '/a%2fb',
  '/a%2F..%2Fadmin',
  '/a%5cb',
  '/a%5C..%5Cadmin',
  '/%252e%252e/admin/students',
  '/a%252Fb',
  '/a%25252e%25252e/x',
  '/a\\..\\..\\admin\\students',
];

describe('gateway path tricks', () => {
  const signer = createSigner();
  const reached: { upstream: UpstreamName; url: string }[] = [];
  const upstreams: Upstream[] = [];
  let gateway: RunningGateway;

  beforeAll(async () => {
    const env: Record<string, string> = {};
    for (const name of UPSTREAMS) {
      const upstream = await startJwksUpstream(signer, (app) => {
        app.use((req, res) => {
          reached.push({ upstream: name, url: req.originalUrl });
          res.json({ from: name });
        });
      });
      upstreams.push(upstream);
      env[`${name.toUpperCase()}_URL`] = upstream.url;
    }
    gateway = await start({ config: gatewayConfig(env), logger: silentLogger });
  });

  afterAll(async () => {
    await gateway.stop();
    await Promise.all(upstreams.map((u) => u.close()));
  });

  beforeEach(() => {
    reached.length = 0;
  });

  it('when the prefixes are listed, then they cover every upstream of the route table', () => {
    const owners = new Set(
      [...PREFIXES, '/.well-known/jwks.json'].map((path) => matchRoute('GET', path)?.upstream),
    );
    owners.delete(undefined);
    expect([...owners].sort()).toEqual([...UPSTREAMS].sort());
  });

  it.each(PREFIXES.flatMap((prefix) => TRICKS.map((trick) => [`${prefix}${trick}`])))(
    'when %s is asked, then it is a 400 JSON and reaches no service',
    async (target) => {
      const res = await rawGet(gateway.url, target, { authorization: `Bearer ${signer.token()}` });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toEqual({
        message: 'The request path is not allowed',
        code: 'invalid_path',
      });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(reached).toEqual([]);
    },
  );

  it('when a student path climbs into the admin area without a token, then it never reaches the student service', async () => {
    const res = await rawGet(gateway.url, '/api/student/x/../../admin/students');
    expect(res.status).toBe(400);
    expect(reached).toEqual([]);
  });

  it('when a sign-in path climbs into the admin area, then it is refused instead of passing as a public auth route', async () => {
    const res = await rawGet(gateway.url, '/api/auth/x/../../admin/admins');
    expect(res.status).toBe(400);
    expect(reached).toEqual([]);
  });

  it('when a path carries characters a URL parser would re-encode, then the service receives it byte for byte', async () => {
    const target = '/api/student/a{b}|c/assessment?q=a%2Bb&r=x y'.replace(' ', '%20');
    const res = await rawGet(gateway.url, target);
    expect(res.status).toBe(200);
    expect(reached).toEqual([{ upstream: 'student', url: target }]);
  });

  it.each([
    '/api/auth/ME',
    '/api/auth/me/',
    '/api/Auth/Change-Password',
    '/API/ADMIN/students',
    '/api/admin/Admins/',
  ])(
    'when %s differs from an admin route only as the services route it (case, trailing slash), then it needs the token too',
    async (target) => {
      const res = await rawGet(gateway.url, target);
      expect(res.status).toBe(401);
      expect(reached).toEqual([]);
      const signedIn = await rawGet(gateway.url, target, { authorization: `Bearer ${signer.token()}` });
      expect(signedIn.status).toBe(200);
      expect(reached.map((r) => r.url)).toEqual([target]);
    },
  );

  it('when a path has malformed percent-encoding, then it is a 400 before any route', async () => {
    const res = await rawGet(gateway.url, '/api/student/%zz');
    expect(res.status).toBe(400);
    expect(reached).toEqual([]);
  });

  it('when a request target is absolute-form, then it is a 400', async () => {
    const { hostname, port } = new URL(gateway.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({
        hostname,
        port,
        path: 'http://evil.example/api/admin/admins',
        method: 'GET',
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
    expect(reached).toEqual([]);
  });

  it('when a dotted name is a whole segment of its own only in appearance, then the path is served', async () => {
    const res = await rawGet(gateway.url, '/api/auth/v1.2/..x/x..');
    expect(res.status).toBe(200);
    expect(reached).toEqual([{ upstream: 'auth', url: '/api/auth/v1.2/..x/x..' }]);
  });
});

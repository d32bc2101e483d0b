import { randomUUID } from 'node:crypto';
import { promises as dns } from 'node:dns';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { timestampDate, timestampFromDate, WebhookEndpointChange } from '@readiness/contracts';
import { generateEventSecretsKey } from '@readiness/kit/outbox';
import { eventually, startServiceUnderTest, testAdminToken, type ServiceUnderTest } from '@readiness/testing';
import { Webhook } from 'standardwebhooks';
import { integrationsService, type HostResolver, type IntegrationsConfig } from '../src';
import { adminToken, invited } from './harness';

jest.setTimeout(90_000);

/** The institution's receiver: keeps what it is sent, answers 503 while told to fail. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: { type: string; version: number; timestamp: string; data: Record<string, unknown> };
}
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let failing = 0;
let redirected = 0;

type Announced = 'integrations.webhook-endpoint.changed.v1' | 'integrations.webhook-endpoint.disabled.v1';
let h: ServiceUnderTest<IntegrationsConfig, undefined, Announced>;
/** The super admin every call here is made as: their id is the actor of the endpoint changes announced. */
const superAdmin = randomUUID();
const token = testAdminToken(superAdmin, { role: 'super_admin' });

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      // A receiver that sends its deliveries elsewhere: the sender must not follow it.
      if (req.url?.startsWith('/redirect')) {
        redirected++;
        res.writeHead(302, { location: `${receiverUrl}/hooks/followed` }).end('moved');
        return;
      }
      if (failing > 0) {
        failing--;
        res.writeHead(503).end('busy, try later');
        return;
      }
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body,
        json: JSON.parse(body) as Received['json'],
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  h = await startServiceUnderTest(integrationsService, {
    kind: 'embedded',
    config: {
      EVENT_SECRETS_KEY: generateEventSecretsKey(),
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: true,
      WEBHOOK_RETRY_BASE_MS: 100,
      WEBHOOK_INTERVAL_MS: 60_000,
      // Given up after 3.6 s: the give-up test waits that long; the others heal well within it.
      WEBHOOK_GIVE_UP_HOURS: 0.001,
    },
    watch: ['integrations.webhook-endpoint.changed.v1', 'integrations.webhook-endpoint.disabled.v1'],
  });
});

afterAll(async () => {
  await h?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** An endpoint at a path of the receiver's own; what it was sent is `sent()`. */
async function addEndpoint(events: string[], url = `${receiverUrl}/hooks/${randomUUID()}`) {
  const res = await h.call('POST', '/api/admin/webhooks', {
    token,
    body: { url, events, description: 'CRM' },
  });
  expect(res.status).toBe(201);
  const added = (await res.json()) as { endpoint: { id: string }; secret: string };
  return { ...added, sent: () => received.filter((r) => url.endsWith(r.path)) };
}

const deliveries = async (endpointId: string) => {
  const res = await h.call('GET', `/api/admin/webhooks/${endpointId}/deliveries`, { token });
  return ((await res.json()) as { deliveries: Array<Record<string, unknown>> }).deliveries;
};

const recorded = (studentId: string) => ({
  resultId: randomUUID(),
  attemptId: randomUUID(),
  studentId,
  name: 'Ada Lovelace',
  email: 'ada@example.edu',
  score: 16,
  totalPoints: 23,
  percentage: 70,
  passed: false,
  passingScore: 70,
  attemptNumber: 1,
  assessmentCode: 'RDY-7K3F-92QX',
  assessmentTitle: 'Readiness check',
  version: 3,
  completedAt: timestampFromDate(new Date('2026-12-01T10:00:00Z')),
});

describe('webhooks', () => {
  it("when no endpoint takes the product's events (most products), then they cost no transaction and wake no sender", async () => {
    // The service's first passes of its jobs, at its start, are over; every statement the pool sends from now on is
    // kept by its text (the jobs' next passes are a minute away here).
    await new Promise((r) => setTimeout(r, 2_000));
    const pool = (h.database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } })
      .$client;
    const original = pool.query;
    const sent: string[] = [];
    pool.query = function (this: unknown, ...args: unknown[]) {
      sent.push(String((args[0] as { text?: string })?.text ?? args[0]));
      return original.apply(this, args);
    };
    try {
      for (let i = 0; i < 5; i++) await h.publish('student.student.invited.v1', invited(randomUUID()));
      await h.publish('results.result.recorded.v1', recorded(randomUUID()));
      await new Promise((r) => setTimeout(r, 1_000));
    } finally {
      pool.query = original;
    }
    // One read of the endpoints' event types (two if the 2-second window turned), no transaction, no inbox row.
    expect(
      sent.filter((q) => q.includes('FROM webhook_endpoints WHERE NOT disabled')).length,
    ).toBeLessThanOrEqual(2);
    expect(sent.filter((q) => /^\s*BEGIN|inbox|webhook_deliveries/i.test(q))).toEqual([]);
  });

  it('when a student is invited and their result recorded while the receiver is busy, then each arrives once, signed, in order, with one id across tries', async () => {
    const { endpoint, secret, sent } = await addEndpoint(['student.invited', 'result.recorded']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const studentId = randomUUID();
    failing = 2;
    const invitation = await h.publish('student.student.invited.v1', invited(studentId));
    await eventually(
      async () => expect(await deliveries(endpoint.id)).toHaveLength(1),
      'the invitation queued',
    );
    await h.publish('results.result.recorded.v1', recorded(studentId));
    // The same event again (a redelivery) queues nothing more.
    await h.bus.publish([invitation]);
    await eventually(() => expect(sent()).toHaveLength(2), 'both deliveries', 20_000);
    const [first, second] = sent() as [Received, Received];
    expect([first.json.type, second.json.type]).toEqual(['student.invited', 'result.recorded']);
    for (const r of [first, second]) {
      // The receiver's check, as the Standard Webhooks library does it.
      expect(() => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
      expect(r.headers['content-type']).toBe('application/json');
    }
    expect(first.json).toEqual({
      type: 'student.invited',
      version: 1,
      timestamp: expect.any(String),
      data: {
        studentId,
        name: 'Ada Lovelace',
        email: 'ada@example.edu',
        language: 'fr',
        expiresAt: '2026-12-08T10:00:00.000Z',
      },
    });
    expect(first.body).not.toContain('sealed-secret-link');
    expect(second.json.data).toMatchObject({
      score: 16,
      totalPoints: 23,
      percentage: 69.6,
      passed: false,
      assessmentVersion: 3,
    });
    const log = await deliveries(endpoint.id);
    expect(log.map((d) => [d.eventType, d.state])).toEqual([
      ['result.recorded', 'sent'],
      ['student.invited', 'sent'],
    ]);
    // Two 503s went to the invitation (the first in order); the result waited for it, then went once.
    expect(log.map((d) => d.tries)).toEqual([1, 3]);
    expect(log[1]).toMatchObject({ lastStatus: 204, lastAnswer: '' });
    expect(first.headers['webhook-id']).toBe(log[1]!.id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sent()).toHaveLength(2);
  });

  it('when the secret is rotated, then deliveries carry both signatures for the overlap, and a test event and "Send again" reach the receiver', async () => {
    const { endpoint, secret: old } = await addEndpoint(['student.deleted']);
    const rotated = await h.call('POST', `/api/admin/webhooks/${endpoint.id}/rotate-secret`, { token });
    const { secret } = (await rotated.json()) as { secret: string };
    expect(secret).not.toBe(old);
    const test = await h.call('POST', `/api/admin/webhooks/${endpoint.id}/test`, { token });
    expect(test.status).toBe(202);
    const { deliveryId } = (await test.json()) as { deliveryId: string };
    const byId = () => received.filter((r) => r.headers['webhook-id'] === deliveryId);
    await eventually(() => expect(byId()).toHaveLength(1), 'the test event', 10_000);
    const [testEvent] = byId() as [Received];
    expect(testEvent.json.type).toBe('webhook.test');
    expect(String(testEvent.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const key of [old, secret]) {
      expect(() =>
        new Webhook(key).verify(testEvent.body, testEvent.headers as Record<string, string>),
      ).not.toThrow();
    }
    const again = await h.call('POST', `/api/admin/webhooks/${endpoint.id}/deliveries/${deliveryId}/send`, {
      token,
    });
    expect(again.status).toBe(202);
    await eventually(() => expect(byId()).toHaveLength(2), 'the delivery sent again', 10_000);
  });

  it('when a student is erased, then what waited about them is not sent, but their deletion is', async () => {
    const { endpoint, sent } = await addEndpoint(['result.recorded', 'student.deleted']);
    const studentId = randomUUID();
    failing = 1_000;
    await h.publish('results.result.recorded.v1', recorded(studentId));
    await eventually(
      async () => expect((await deliveries(endpoint.id))[0]?.tries).toBeGreaterThan(0),
      'a failed try',
    );
    await h.publish('student.student.deleted.v1', {
      studentId,
      email: 'ada@example.edu',
      actorId: randomUUID(),
    });
    await eventually(
      async () =>
        expect((await deliveries(endpoint.id)).map((d) => d.eventType)).toEqual(['student.deleted']),
      'the waiting result dropped',
    );
    failing = 0;
    await eventually(
      () => expect(sent().map((r) => r.json.type)).toEqual(['student.deleted']),
      'the deletion',
    );
  });

  it('when an endpoint is on a link-local or metadata address, or the caller is not a super admin, then it is refused and nothing is kept', async () => {
    const before = (
      (await (await h.call('GET', '/api/admin/webhooks', { token })).json()) as { endpoints: unknown[] }
    ).endpoints.length;
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00:ec2::254]/',
      'https://user:pw@example.org/',
    ]) {
      const res = await h.call('POST', '/api/admin/webhooks', {
        token,
        body: { url, events: ['student.deleted'] },
      });
      expect(res.status).toBe(400);
    }
    const unknownEvent = await h.call('POST', '/api/admin/webhooks', {
      token,
      body: { url: `${receiverUrl}/hooks`, events: ['student.password'] },
    });
    expect(unknownEvent.status).toBe(400);
    const plain = await h.call('POST', '/api/admin/webhooks', {
      token: adminToken(),
      body: { url: `${receiverUrl}/hooks`, events: ['student.deleted'] },
    });
    expect(plain.status).toBe(403);
    const list = (await (await h.call('GET', '/api/admin/webhooks', { token })).json()) as {
      endpoints: Array<Record<string, unknown>>;
      eventTypes: string[];
    };
    expect(list.endpoints).toHaveLength(before);
    expect(JSON.stringify(list)).not.toContain('whsec_');
    expect(list.eventTypes).toEqual([
      'result.recorded',
      'certificate.issued',
      'student.invited',
      'student.started',
      'student.deleted',
    ]);
  });

  it('when the receiver answers a redirect (to a loopback URL), then it is not followed and the log shows the 302', async () => {
    const { endpoint } = await addEndpoint(['student.deleted'], `${receiverUrl}/redirect/${randomUUID()}`);
    await h.call('POST', `/api/admin/webhooks/${endpoint.id}/test`, { token });
    await eventually(
      async () => expect((await deliveries(endpoint.id))[0]).toMatchObject({ lastStatus: 302 }),
      'the redirect answered',
    );
    expect(redirected).toBeGreaterThan(0);
    const [log] = await deliveries(endpoint.id);
    expect(log).toMatchObject({ lastAnswer: 'moved' });
    expect(log!.state).not.toBe('sent');
    expect(received.filter((r) => r.path === '/hooks/followed')).toEqual([]);
  });

  it('when an endpoint keeps failing past the give-up time, then its delivery is given up, the endpoint disabled, and its disabling announced once with what the super admins are told', async () => {
    const url = 'http://127.0.0.1:9/closed';
    const { endpoint } = await addEndpoint(['student.started'], url);
    await h.call('POST', `/api/admin/webhooks/${endpoint.id}/test`, { token });
    const listed = await eventually(
      async () => {
        const list = (await (await h.call('GET', '/api/admin/webhooks', { token })).json()) as {
          endpoints: Array<{
            id: string;
            disabled: boolean;
            disabledReason: string | null;
            failingSince: string | null;
          }>;
        };
        const found = list.endpoints.find((e) => e.id === endpoint.id);
        expect(found).toMatchObject({ disabled: true });
        return found!;
      },
      'the endpoint disabled',
      30_000,
    );
    expect((await deliveries(endpoint.id))[0]).toMatchObject({ state: 'failed', lastStatus: null });
    const announced = await eventually(() => {
      const found = h
        .eventsNamed('integrations.webhook-endpoint.disabled.v1')
        .filter((e) => e.payload.endpointId === endpoint.id);
      return found.length ? found : false;
    }, 'the disabling announced');
    // A later pass of the sender finds the endpoint disabled already: nothing more is announced.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      h
        .eventsNamed('integrations.webhook-endpoint.disabled.v1')
        .filter((e) => e.payload.endpointId === endpoint.id),
    ).toHaveLength(1);
    const { payload } = announced[0]!;
    expect(payload).toMatchObject({
      url,
      description: 'CRM',
      lastStatus: 0,
      lastAnswer: expect.stringMatching(/ECONNREFUSED/),
      reason: listed.disabledReason,
    });
    expect(timestampDate(payload.failingSince!).toISOString()).toBe(listed.failingSince);
    expect(timestampDate(payload.disabledAt!).getTime()).toBeGreaterThanOrEqual(
      timestampDate(payload.failingSince!).getTime(),
    );
  });

  it('when a super admin adds, edits, disables, enables, rotates the secret of and deletes an endpoint, then each change is announced once for the audit log, with the admin and the URL, never the secret', async () => {
    const url = `${receiverUrl}/hooks/${randomUUID()}`;
    const { endpoint, secret } = await addEndpoint(['student.invited'], url);
    const edited = {
      url: `${url}/v2`,
      events: ['student.invited', 'student.deleted'],
      description: 'CRM v2',
    };
    const put = (body: Record<string, unknown>) =>
      h.call('PUT', `/api/admin/webhooks/${endpoint.id}`, { token, body });
    expect((await put({ ...edited, disabled: false })).status).toBe(200);
    expect((await put({ ...edited, disabled: true })).status).toBe(200);
    expect((await put({ ...edited, disabled: false })).status).toBe(200);
    const rotated = await h.call('POST', `/api/admin/webhooks/${endpoint.id}/rotate-secret`, { token });
    const { secret: newSecret } = (await rotated.json()) as { secret: string };
    const byPlainAdmin = await h.call('POST', `/api/admin/webhooks/${endpoint.id}/rotate-secret`, {
      token: adminToken(),
    });
    expect(byPlainAdmin.status).toBe(403);
    expect((await h.call('DELETE', `/api/admin/webhooks/${endpoint.id}`, { token })).status).toBe(204);
    // Refused changes announce nothing: a plain admin's, and one to an endpoint that is gone.
    expect((await h.call('DELETE', `/api/admin/webhooks/${endpoint.id}`, { token })).status).toBe(404);
    const ofEndpoint = () =>
      h
        .eventsNamed('integrations.webhook-endpoint.changed.v1')
        .filter((e) => e.payload.endpointId === endpoint.id);
    await eventually(() => expect(ofEndpoint()).toHaveLength(6), 'the six changes announced');
    const changes = ofEndpoint().map((e) => e.payload);
    expect(changes.map((c) => c.change)).toEqual([
      WebhookEndpointChange.ADDED,
      WebhookEndpointChange.UPDATED,
      WebhookEndpointChange.DISABLED,
      WebhookEndpointChange.ENABLED,
      WebhookEndpointChange.SECRET_ROTATED,
      WebhookEndpointChange.DELETED,
    ]);
    expect(changes.every((c) => c.actorId === superAdmin)).toBe(true);
    expect(changes[0]).toMatchObject({ url, description: 'CRM', events: ['student.invited'] });
    expect(changes[5]).toMatchObject({ url: `${url}/v2`, description: 'CRM v2', events: edited.events });
    const everything = JSON.stringify(ofEndpoint(), (_, v: unknown) =>
      typeof v === 'bigint' ? String(v) : v,
    );
    for (const s of [secret, newSecret, 'whsec_']) expect(everything).not.toContain(s);
  });
});

describe('webhooks where private networks are not allowed (the default)', () => {
  let strict: ServiceUnderTest<IntegrationsConfig, undefined, never>;
  /** The names this file's DNS answers (what they resolve to now), every other one as the system resolves it. */
  const zone = new Map<string, string>();
  const asked: string[] = [];
  const resolve: HostResolver = async (hostname) => {
    asked.push(hostname);
    const address = zone.get(hostname);
    if (!address) return dns.lookup(hostname, { all: true });
    return [{ address, family: 4 }];
  };
  beforeAll(async () => {
    strict = await startServiceUnderTest(integrationsService, {
      kind: 'embedded',
      config: {
        EVENT_SECRETS_KEY: generateEventSecretsKey(),
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: false,
        WEBHOOK_INTERVAL_MS: 60_000,
      },
      options: { resolve },
    });
  });
  afterAll(async () => {
    await strict?.close();
  });

  it('when a host name resolves to a public address at save and to loopback when the delivery connects (DNS rebinding), then no connection reaches the loopback receiver and the log says why', async () => {
    // A receiver on loopback that counts every connection made to it, TLS or not.
    const connections: Socket[] = [];
    const loopback = createTcpServer((socket) => {
      connections.push(socket);
      socket.destroy();
    });
    await new Promise<void>((done) => loopback.listen(0, '127.0.0.1', done));
    try {
      const host = `hooks-${randomUUID().slice(0, 8)}.rebind.example`;
      // At save, a public address (never connected to: the save only resolves it).
      zone.set(host, '93.184.215.14');
      const saved = await strict.call('POST', '/api/admin/webhooks', {
        token,
        body: {
          url: `https://${host}:${(loopback.address() as AddressInfo).port}/hooks`,
          events: ['student.deleted'],
        },
      });
      expect(saved.status).toBe(201);
      const { endpoint } = (await saved.json()) as { endpoint: { id: string } };
      // Then the name is pointed at loopback, and a delivery is queued.
      zone.set(host, '127.0.0.1');
      const askedAtSave = asked.filter((name) => name === host).length;
      expect((await strict.call('POST', `/api/admin/webhooks/${endpoint.id}/test`, { token })).status).toBe(
        202,
      );
      const log = async () =>
        (
          (await (
            await strict.call('GET', `/api/admin/webhooks/${endpoint.id}/deliveries`, { token })
          ).json()) as { deliveries: Array<Record<string, unknown>> }
        ).deliveries;
      const [tried] = await eventually(async () => {
        const found = await log();
        return (found[0]?.tries as number) > 0 ? found : false;
      }, 'a try of the delivery');
      expect(tried).toMatchObject({
        state: 'pending',
        lastStatus: null,
        lastAnswer: `refused: ${host} resolves to a loopback address`,
      });
      // The connection itself asked where the name leads, and was refused before connecting.
      expect(asked.filter((name) => name === host).length).toBeGreaterThan(askedAtSave);
      expect(connections).toHaveLength(0);
    } finally {
      await new Promise((done) => loopback.close(done));
    }
  });

  it.each([
    ['loopback written in the URL', () => `https://127.0.0.1:${new URL(receiverUrl).port}/hooks`, /loopback/],
    ['a host name that resolves to loopback', () => 'https://localhost/hooks', /loopback/],
    ['IPv6 loopback', () => 'https://[::1]/hooks', /loopback/],
    ['a private address', () => 'https://10.1.2.3/hooks', /private/],
    ['plain http', () => `http://127.0.0.1:${new URL(receiverUrl).port}/hooks`, /https/],
  ])('when an endpoint is %s, then it is refused at save and nothing is kept', async (_, url, why) => {
    const before = received.length;
    const listed = async () =>
      (
        (await (await strict.call('GET', '/api/admin/webhooks', { token })).json()) as {
          endpoints: unknown[];
        }
      ).endpoints;
    const endpointsBefore = await listed();
    const res = await strict.call('POST', '/api/admin/webhooks', {
      token,
      body: { url: url(), events: ['student.deleted'] },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string; field?: string }).message).toMatch(why);
    expect(await listed()).toEqual(endpointsBefore);
    expect(received.length).toBe(before);
  });
});

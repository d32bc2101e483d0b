import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import amqp from 'amqplib';
import { consumers } from '@readiness/contracts';
import { generateEventSecretsKey } from '@readiness/kit/outbox';
import {
  boundRoutingKeys,
  eventually,
  startServiceUnderTest,
  type ServiceUnderTest,
} from '@readiness/testing';
import { integrationsService, type IntegrationsConfig } from '../src';
import { invited, superAdminToken } from './harness';

jest.setTimeout(90_000);

/**
 * The webhook and grades queues over a real broker, with two replicas as two pods: bound to the events the endpoints
 * and LMS connections need, never more for long, never less once a change answered (docs/events.md, "Bound on
 * demand").
 */
const EXCHANGE = 'readiness.events';
const INVITED = 'student.student.invited.v1';
const STARTED = 'student.attempt.started.v1';
const RECORDED = 'results.result.recorded.v1';
const DELETED = 'student.student.deleted.v1';

let receiver: Server;
let receiverUrl: string;
const received: Array<{ type: string; studentId: string }> = [];
let h: ServiceUnderTest<IntegrationsConfig, undefined, never>;
const token = superAdminToken();
const EVENT_SECRETS_KEY = generateEventSecretsKey();
const config = {
  EVENT_SECRETS_KEY,
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: true,
  WEBHOOK_RETRY_BASE_MS: 100,
  // Given up, and its endpoint disabled, after 3.6 s of failures (only the receiver that is down fails).
  WEBHOOK_GIVE_UP_HOURS: 0.001,
  LTI_ALLOW_HTTP_LOOPBACK: true,
};

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      // A receiver that is down: its endpoint fails until the sender gives it up and disables it.
      if (req.url?.startsWith('/down/')) {
        res.writeHead(503).end('down');
        return;
      }
      const json = JSON.parse(body) as { type: string; data: { studentId?: string } };
      received.push({ type: json.type, studentId: json.data.studentId ?? '' });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  h = await startServiceUnderTest(integrationsService, { kind: 'real', brokerProxy: true, config });
});

afterAll(async () => {
  await h?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const bound = (queue: keyof typeof consumers) => boundRoutingKeys(h.vhost!, EXCHANGE, queue);

async function addEndpoint(events: string[], disabled = false) {
  const res = await h.call('POST', '/api/admin/webhooks', {
    token,
    body: { url: `${receiverUrl}/hooks/${randomUUID()}`, events, description: 'CRM' },
  });
  expect(res.status).toBe(201);
  const { endpoint } = (await res.json()) as { endpoint: { id: string; url: string } };
  if (disabled) {
    const off = await h.call('PUT', `/api/admin/webhooks/${endpoint.id}`, {
      token,
      body: { url: endpoint.url, events, description: 'CRM', disabled: true },
    });
    expect(off.status).toBe(200);
  }
  return endpoint.id;
}

const removeEndpoint = async (id: string, via: { call: typeof h.call } = h) =>
  expect((await via.call('DELETE', `/api/admin/webhooks/${id}`, { token })).status).toBe(204);

async function endpoints(): Promise<string[]> {
  const res = await h.call('GET', '/api/admin/webhooks', { token });
  return ((await res.json()) as { endpoints: Array<{ id: string }> }).endpoints.map((e) => e.id);
}

test('when nothing is configured, then the webhook and grades queues take no event; a saved endpoint binds its types before the save answers, and the last one deleted unbinds them', async () => {
  await eventually(async () => {
    expect(await bound('integrations.webhooks')).toEqual([]);
    expect(await bound('integrations.result-recorded')).toEqual([]);
  }, 'both queues unbound');

  const id = await addEndpoint(['student.invited']);
  // No wait: the binding was made before the answer, so the first event after it reaches the endpoint.
  expect(await bound('integrations.webhooks')).toEqual([DELETED, INVITED]);
  const studentId = randomUUID();
  await h.publish(INVITED, invited(studentId));
  await eventually(
    () => expect(received).toContainEqual({ type: 'student.invited', studentId }),
    'the invitation delivered',
  );

  // A disabled endpoint takes nothing, but its pending deliveries still go with an erased student.
  const disabled = await addEndpoint(['student.started'], true);
  await eventually(
    async () => expect(await bound('integrations.webhooks')).toEqual([DELETED, INVITED]),
    'the disabled endpoint takes nothing',
  );

  await removeEndpoint(id);
  await eventually(
    async () => expect(await bound('integrations.webhooks')).toEqual([DELETED]),
    'only the erasures, for the disabled endpoint',
  );
  await removeEndpoint(disabled);
  await eventually(
    async () => expect(await bound('integrations.webhooks')).toEqual([]),
    'unbound once no endpoint is left',
  );
});

test('when an LMS is connected, then the grades queue takes the results, and no longer once it is removed', async () => {
  const res = await h.call('POST', '/api/admin/lti/platforms', {
    token,
    body: {
      name: 'Campus LMS',
      issuer: `http://127.0.0.1:9/${randomUUID()}`,
      clientId: 'readiness',
      deploymentIds: ['1'],
      authUrl: 'http://127.0.0.1:9/auth',
      jwksUrl: 'http://127.0.0.1:9/jwks',
      tokenUrl: 'http://127.0.0.1:9/token',
    },
  });
  expect(res.status).toBe(201);
  expect(await bound('integrations.result-recorded')).toEqual([RECORDED]);
  const { platform } = (await res.json()) as { platform: { id: string } };
  expect((await h.call('DELETE', `/api/admin/lti/platforms/${platform.id}`, { token })).status).toBe(204);
  await eventually(
    async () => expect(await bound('integrations.result-recorded')).toEqual([]),
    'unbound once the LMS is removed',
  );
});

test('when the broker is away, then saving an endpoint answers 503 and saves nothing, and removing one still works', async () => {
  const removed = await addEndpoint(['student.invited']);
  const before = (await endpoints()).filter((id) => id !== removed);
  h.proxy!.cut();
  try {
    await eventually(() => expect(h.bus.ready()).toBe(false), 'the bus to notice the cut');
    const res = await h.call('POST', '/api/admin/webhooks', {
      token,
      body: { url: `${receiverUrl}/hooks/away`, events: ['student.invited'], description: 'CRM' },
    });
    expect(res.status).toBe(503);
    await removeEndpoint(removed);
  } finally {
    h.proxy!.restore();
  }
  expect(await endpoints()).toEqual(before);
  await eventually(() => expect(h.bus.ready()).toBe(true), 'the reconnect');
});

test('when one replica removes endpoints while the other saves them, then every saved endpoint stays bound', async () => {
  const other = await h.startReplica(config, { sameBroker: true });
  const viaOther = {
    call: (method: string, url: string, options: { token?: string | null } = {}) =>
      fetch(`${other.url}${url}`, { method, headers: { authorization: `Bearer ${options.token}` } }),
  } as unknown as { call: typeof h.call };
  const saved: string[] = [];
  const types = { 'student.invited': INVITED, 'student.started': STARTED, 'result.recorded': RECORDED };
  const wanted = new Set<string>();
  for (let round = 0; round < 6; round++) {
    const [type, event] = Object.entries(types)[round % 3]!;
    // Each removal on the other replica settles the bindings from what it reads once it committed.
    const spare = await addEndpoint(['certificate.issued']);
    const [id] = await Promise.all([addEndpoint([type]), removeEndpoint(spare, viaOther)]);
    saved.push(id);
    wanted.add(event);
    expect(await bound('integrations.webhooks')).toEqual(expect.arrayContaining([...wanted]));
  }
  await eventually(
    async () =>
      expect(await bound('integrations.webhooks')).toEqual([RECORDED, DELETED, STARTED, INVITED].sort()),
    'every saved type bound, the spare one not',
  );
  for (const id of saved) await removeEndpoint(id);
  await eventually(async () => expect(await bound('integrations.webhooks')).toEqual([]), 'all unbound');
});

test('when a release before left the queues bound to every event, then a replica starting settles them to what is configured', async () => {
  const connection = await amqp.connect(h.amqpUrl!);
  try {
    const channel = await connection.createChannel();
    for (const event of consumers['integrations.webhooks']) {
      await channel.bindQueue('integrations.webhooks', EXCHANGE, event);
    }
    await channel.bindQueue('integrations.result-recorded', EXCHANGE, RECORDED);
    await channel.close();
  } finally {
    await connection.close();
  }
  const id = await addEndpoint(['result.recorded']);
  await h.startReplica(config, { sameBroker: true });
  await eventually(async () => {
    expect(await bound('integrations.webhooks')).toEqual([RECORDED, DELETED].sort());
    expect(await bound('integrations.result-recorded')).toEqual([]);
  }, 'settled at start');
  await removeEndpoint(id);
});

test('when the sender disables an endpoint that failed for the give-up time, then its types are unbound once it committed, not a minute later', async () => {
  const res = await h.call('POST', '/api/admin/webhooks', {
    token,
    body: { url: `${receiverUrl}/down/${randomUUID()}`, events: ['student.invited'], description: 'CRM' },
  });
  expect(res.status).toBe(201);
  const { endpoint } = (await res.json()) as { endpoint: { id: string } };
  expect(await bound('integrations.webhooks')).toEqual([DELETED, INVITED]);
  await h.publish(INVITED, invited(randomUUID()));
  await eventually(
    async () => {
      const listed = await h.call('GET', '/api/admin/webhooks', { token });
      const { endpoints: all } = (await listed.json()) as {
        endpoints: Array<{ id: string; disabled: boolean }>;
      };
      expect(all.find((e) => e.id === endpoint.id)?.disabled).toBe(true);
    },
    'the endpoint disabled by the sender',
    20_000,
  );
  // The periodic settle is a minute away: only the sender's own settle unbinds it this soon.
  await eventually(
    async () => expect(await bound('integrations.webhooks')).toEqual([DELETED]),
    'the type of the disabled endpoint unbound',
    5_000,
  );
  await removeEndpoint(endpoint.id);
});

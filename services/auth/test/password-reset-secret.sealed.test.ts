import { sql } from 'drizzle-orm';
import amqp from 'amqplib';
import { decodeEnvelope, decodePayload } from '@readiness/contracts';
import { createRabbitBus, DEFAULT_EXCHANGE, queueTopology, type EventBus } from '@readiness/kit/bus';
import { eventually } from '@readiness/testing';
import { client, logger, ROOT, startAuth, uniqueEmail, type Harness } from './harness';

let h: Harness;
let api: ReturnType<typeof client>;
let rootToken: string;
let broker: amqp.ChannelModel;
let channel: amqp.Channel;
let failing: EventBus;
const SPY_QUEUE = 'auth-test.broker-spy';
const FAILING_QUEUE = 'auth-test.always-fails';

jest.setTimeout(60_000);

beforeAll(async () => {
  h = await startAuth('real');
  api = client(h.url);
  rootToken = await api.login(ROOT.email, ROOT.password);
  broker = await amqp.connect(h.amqpUrl as string);
  channel = await broker.createChannel();
  // What anyone with read access to the broker sees of the event.
  await channel.checkExchange(DEFAULT_EXCHANGE);
  await channel.assertQueue(SPY_QUEUE, { durable: false });
  await channel.bindQueue(SPY_QUEUE, DEFAULT_EXCHANGE, 'auth.admin.password-reset.v1');
  // A consumer that always fails, so the event ends in its dead-letter queue.
  failing = createRabbitBus({ url: h.amqpUrl as string, service: 'auth-test', logger, retryDelaysMs: [50] });
  await failing.start();
  await failing.subscribe({
    queue: FAILING_QUEUE,
    events: ['auth.admin.password-reset.v1'],
    maxAttempts: 1,
    handle: () => Promise.reject(new Error('mail server down')),
  });
}, 60_000);

afterAll(async () => {
  await failing?.close();
  await broker?.close();
  await h?.close();
});

test('when a password is reset, then neither the outbox row, the message on the broker nor the dead-lettered copy holds it in clear; the shared key opens it and it signs in', async () => {
  const email = uniqueEmail('sealed');
  const target = await api.createAdmin(rootToken, {
    name: 'Sealed',
    email,
    password: 'Before-pass-42',
    role: 'admin',
  });
  expect(
    (await api.call('POST', `/api/admin/admins/${target._id}/reset-password`, { token: rootToken })).status,
  ).toBe(200);

  const onBroker = await eventually(
    async () => (await channel.get(SPY_QUEUE, { noAck: true })) || false,
    'the event on the broker',
  );
  const event = decodePayload('auth.admin.password-reset.v1', decodeEnvelope(onBroker.content).payload);
  expect(event.temporaryPassword).toBe('');
  const password = h.secrets.open(event.sealedTemporaryPassword);
  expect(password.length).toBeGreaterThanOrEqual(16);
  const inClear = (bytes: Uint8Array) => Buffer.from(bytes).includes(Buffer.from(password, 'utf8'));
  expect(inClear(onBroker.content)).toBe(false);

  const dlq = queueTopology(FAILING_QUEUE).deadLetterQueue;
  const deadLettered = await eventually(
    async () => (await channel.get(dlq, { noAck: true })) || false,
    'the dead letter',
  );
  expect(inClear(deadLettered.content)).toBe(false);

  const rows = await eventually(async () => {
    const found = await h.database.execute<{ payload: Uint8Array; sent: boolean }>(
      sql`SELECT payload, sent_at IS NOT NULL AS sent FROM outbox WHERE name = 'auth.admin.password-reset.v1'`,
    );
    return found.length > 0 && found.every((r) => r.sent) ? found : false;
  }, 'the outbox row marked sent');
  for (const row of rows) expect(inClear(row.payload)).toBe(false);

  expect((await api.call('POST', '/api/auth/login', { body: { email, password } })).status).toBe(200);
});

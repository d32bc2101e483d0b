import { eventually } from '@readiness/testing';
import { Registry } from 'prom-client';
import { decodeEnvelope, encodeEnvelope } from '@readiness/contracts';
import {
  CONTENT_TYPE,
  HEADERS,
  queueTopology,
  retiredRetryQueues,
  retryTopology,
  unroutedQueueName,
} from '../rabbit';
import { DEFAULT_EXCHANGE, type BusMessage, type EventBus, type HandlerContext } from '../types';
import { message, names, sleep, TEST_OPTIONS } from './contract';
import { RabbitEnv } from './rabbit-harness';

jest.setTimeout(30_000);

describe('RabbitMQ bus: topology and publishing', () => {
  const env = new RabbitEnv();
  let bus: EventBus;
  beforeAll(async () => {
    await env.setUp();
    bus = env.createBus({ ...TEST_OPTIONS, registry: new Registry() });
    await bus.start();
  });
  afterAll(async () => {
    await bus.close();
    await env.tearDown();
  });

  test('when a handler subscribes, then its queue and dead-letter queue are durable quorum queues, and its retries wait in the queues every handler shares', async () => {
    const { event, queue } = names('topology');
    await bus.subscribe({ queue, events: [event], handle: async () => undefined });
    const t = queueTopology(queue);

    const main = await env.queueInfo(queue);
    expect(main).toMatchObject({ type: 'quorum', durable: true });
    expect(main.arguments['x-dead-letter-exchange']).toBe(t.deadLetterExchange);
    expect(await env.queueInfo(t.deadLetterQueue)).toMatchObject({
      type: 'quorum',
      durable: true,
    });
    const waits = retryTopology(DEFAULT_EXCHANGE, TEST_OPTIONS.retryDelaysMs ?? []);
    expect(waits.map((r) => r.name)).toEqual([50, 100, 200].map((ms) => `${DEFAULT_EXCHANGE}.retry-${ms}ms`));
    for (const r of waits) {
      const info = await env.queueInfo(r.name);
      expect(info).toMatchObject({ type: 'quorum', durable: true });
      // Back through the default exchange under the message's own routing key, which is its handler's queue.
      expect(info.arguments).toMatchObject({ 'x-message-ttl': r.ms, 'x-dead-letter-exchange': '' });
      expect(info.arguments).not.toHaveProperty('x-dead-letter-routing-key');
    }
    // None of the per-handler wait queues of releases before.
    for (const old of retiredRetryQueues(queue, TEST_OPTIONS.retryDelaysMs ?? []))
      await expect(env.queueInfo(old)).rejects.toThrow('HTTP 404');
  });

  test('when two handlers fail the same event in the same wait, then each retry comes back to its own handler only', async () => {
    const { event, queue } = names('shared-wait');
    const other = `${queue}-other`;
    const seen: Record<string, number[]> = { [queue]: [], [other]: [] };
    for (const q of [queue, other])
      await bus.subscribe({
        queue: q,
        events: [event],
        handle: async (_m, ctx) => {
          seen[q]?.push(ctx.attempt);
          if (ctx.attempt < 3) throw new Error('not yet');
        },
      });
    await bus.publish([message(event)]);
    await eventually(
      () => expect(seen).toEqual({ [queue]: [1, 2, 3], [other]: [1, 2, 3] }),
      'three passes each',
    );
    await sleep(300); // longer than the longest wait: nothing comes back a fourth time, to either
    expect(seen).toEqual({ [queue]: [1, 2, 3], [other]: [1, 2, 3] });
  });

  test('when an event is published, then it is persistent protobuf with the event id as message id and the name as type', async () => {
    const { event } = names('props');
    const tap = await env.sideCh.assertQueue('', { exclusive: true });
    await env.sideCh.bindQueue(tap.queue, DEFAULT_EXCHANGE, event);
    const sent = message(event);
    await bus.publish([sent]);

    const got = await eventually(async () => {
      const m = await env.sideCh.get(tap.queue, { noAck: true });
      if (!m) throw new Error('nothing yet');
      return m;
    }, 'the tapped message');
    expect(got.fields.routingKey).toBe(event);
    expect(got.properties).toMatchObject({
      deliveryMode: 2,
      contentType: CONTENT_TYPE,
      messageId: sent.id,
      type: event,
    });
    expect(decodeEnvelope(got.content).id).toBe(sent.id);
  });

  test('when an event nobody subscribes to is published, then the broker confirms it and keeps it in the unrouted queue', async () => {
    const { event } = names('unrouted');
    const unrouted = unroutedQueueName(DEFAULT_EXCHANGE);
    await env.sideCh.purgeQueue(unrouted);
    const sent = message(event);
    await expect(bus.publish([sent])).resolves.toBeUndefined();

    const kept = await eventually(async () => {
      const m = await env.sideCh.get(unrouted, { noAck: true });
      if (!m) throw new Error('nothing yet');
      return m;
    }, 'the unrouted message');
    expect(kept.properties.messageId).toBe(sent.id);
    expect(kept.fields.routingKey).toBe(event);
  });

  test('when a dead letter is written, then it carries the last error, the reason and the attempt count in headers', async () => {
    const { event, queue } = names('headers');
    await bus.subscribe({
      queue,
      events: [event],
      maxAttempts: 2,
      handle: async () => {
        throw new Error('the database said no');
      },
    });
    const sent = message(event);
    await bus.publish([sent]);
    const dlq = queueTopology(queue).deadLetterQueue;
    const dead = await eventually(async () => {
      const m = await env.sideCh.get(dlq, { noAck: true });
      if (!m) throw new Error('nothing yet');
      return m;
    }, 'the dead letter');
    expect(dead.properties.messageId).toBe(sent.id);
    expect(dead.properties.headers).toMatchObject({
      [HEADERS.lastError]: 'the database said no',
      [HEADERS.reason]: 'attempts_exhausted',
      [HEADERS.attempt]: 2,
      [HEADERS.originalRoutingKey]: queue, // the last pass came back from a wait queue
    });
  });

  test('when a batch larger than the client write buffer is published, then every message is confirmed and consumed', async () => {
    const { event, queue } = names('bulk');
    const seen = new Set<string>();
    await bus.subscribe({ queue, events: [event], handle: async (m) => void seen.add(m.id) });
    // amqplib buffers up to 1024 frames per channel before publish() returns false and the bus waits for drain.
    const payload = new Uint8Array(1024).fill(7);
    const batch = Array.from({ length: 1500 }, () => message(event, { payload }));
    await bus.publish(batch);
    await eventually(() => expect(seen.size).toBe(batch.length), 'every message', 20_000);
  });

  test('when the broker nacks a message, then the publish rejects', async () => {
    const { event } = names('nacked');
    // A full queue that refuses new messages makes the broker nack whatever is routed to it.
    const full = await env.sideCh.assertQueue('', {
      exclusive: true,
      arguments: { 'x-max-length': 0, 'x-overflow': 'reject-publish' },
    });
    await env.sideCh.bindQueue(full.queue, DEFAULT_EXCHANGE, event);
    await expect(bus.publish([message(event)])).rejects.toMatchObject({ code: 'bus_unavailable' });
    // The channel survives a nack: the next publish elsewhere goes through.
    await expect(bus.publish([message(names('after-nack').event)])).resolves.toBeUndefined();
  });

  // Keep last: it breaks the topology of this vhost on purpose.
  test('when the topology is broken so the broker cannot route an event, then the returned message rejects the publish', async () => {
    const { event } = names('returned');
    await env.sideCh.deleteQueue(unroutedQueueName(DEFAULT_EXCHANGE));
    await expect(bus.publish([message(event)])).rejects.toMatchObject({ code: 'event_unroutable' });
  });
});

describe('RabbitMQ bus: queues of services not started yet', () => {
  const env = new RabbitEnv();
  afterAll(() => env.tearDown());
  beforeAll(() => env.setUp());

  test('when a publisher declares a consumer queue before that consumer ever connected, then an event published meanwhile waits for it and is delivered once it subscribes', async () => {
    const { event, queue } = names('declared-early');
    const publisher = env.createBus({
      ...TEST_OPTIONS,
      registry: new Registry(),
      service: 'publisher',
      declareQueues: [{ queue, events: [event] }],
    });
    await publisher.start();
    const sent = message(event);
    await publisher.publish([sent]);
    // Routed to the declared queue: nothing went to the unrouted queue, nothing is lost.
    expect(await env.queueInfo(queue)).toMatchObject({ type: 'quorum', durable: true });

    const consumer = env.createBus({ ...TEST_OPTIONS, registry: new Registry(), service: 'consumer' });
    await consumer.start();
    const received: string[] = [];
    await consumer.subscribe({ queue, events: [event], handle: async (msg) => void received.push(msg.id) });
    await eventually(() => expect(received).toEqual([sent.id]));
    await publisher.close();
    await consumer.close();
  });

  test('when no service declares a consumer queue ahead, then an event published before it existed never reaches it', async () => {
    const { event, queue } = names('declared-late');
    const publisher = env.createBus({ ...TEST_OPTIONS, registry: new Registry(), service: 'publisher' });
    await publisher.start();
    await publisher.publish([message(event)]);
    const consumer = env.createBus({ ...TEST_OPTIONS, registry: new Registry(), service: 'consumer' });
    await consumer.start();
    const received: string[] = [];
    await consumer.subscribe({ queue, events: [event], handle: async (msg) => void received.push(msg.id) });
    const later = message(event);
    await publisher.publish([later]);
    await eventually(() => expect(received).toEqual([later.id]));
    await publisher.close();
    await consumer.close();
  });
});

describe('RabbitMQ bus: the wait queues of releases before', () => {
  const env = new RabbitEnv();
  beforeAll(() => env.setUp());
  afterAll(() => env.tearDown());

  test('when the release with shared wait queues has been connected a while, then it deletes the per-handler wait queues of the release before once they are empty, never one still holding a retry', async () => {
    const { event, queue } = names('retired');
    const received: Array<{ id: string; attempt: number }> = [];
    const subscription = {
      queue,
      events: [event],
      handle: async (m: BusMessage, ctx: HandlerContext) =>
        void received.push({ id: m.id, attempt: ctx.attempt }),
    };
    // The handler's queue as any release declares it, then two of its wait queues as the release before did.
    const first = env.createBus({ ...TEST_OPTIONS, registry: new Registry() });
    await first.subscribe(subscription);
    await first.start();
    await first.close();
    const declareOld = (ms: number) =>
      env.sideCh.assertQueue(`${queue}.retry-${ms}ms`, {
        durable: true,
        arguments: {
          'x-queue-type': 'quorum',
          'x-message-ttl': ms,
          'x-dead-letter-exchange': '',
          'x-dead-letter-routing-key': queue,
          'x-dead-letter-strategy': 'at-least-once',
          'x-overflow': 'reject-publish',
        },
      });
    await declareOld(50);
    await declareOld(1_000);
    // A retry the release before parked for a second.
    const waiting = message(event);
    env.sideCh.publish('', `${queue}.retry-1000ms`, Buffer.from(encodeEnvelope(waiting)), {
      persistent: true,
      contentType: CONTENT_TYPE,
      messageId: waiting.id,
      type: event,
      headers: { [HEADERS.attempt]: 2 },
    });
    await env.sideCh.waitForConfirms();

    const upgraded = env.createBus({ ...TEST_OPTIONS, registry: new Registry(), retiredQueuesAfterMs: 0 });
    await upgraded.subscribe(subscription);
    await upgraded.start();
    try {
      await eventually(
        () => expect(env.queueInfo(`${queue}.retry-50ms`)).rejects.toThrow('HTTP 404'),
        'the empty one deleted',
      );
      // The one holding a retry is kept, and the retry reaches the handler when its wait is over.
      await eventually(() => expect(received).toEqual([{ id: waiting.id, attempt: 2 }]), 'the parked retry');
      await expect(env.queueInfo(`${queue}.retry-1000ms`)).resolves.toMatchObject({ type: 'quorum' });
      // Emptied, it goes with the next look (after a reconnect here), once the retry's ack went out (the bus gathers
      // acks for a few milliseconds; an ack cut off by the reconnect would bring the retry back, as it should).
      await sleep(300);
      env.blip();
      await eventually(
        () => expect(env.queueInfo(`${queue}.retry-1000ms`)).rejects.toThrow('HTTP 404'),
        'the emptied one deleted',
        10_000,
      );
      expect(received).toHaveLength(1);
    } finally {
      await upgraded.close();
    }
  });
});

import { eventually } from '@readiness/testing';
import type { Channel, ConsumeMessage } from 'amqplib';
import { Registry } from 'prom-client';
import { HEADERS } from '../rabbit';
import type { EventBus, RabbitBusOptions, Subscription } from '../types';
import { counterValue, message, names, sleep, TEST_OPTIONS } from './contract';
import { RabbitEnv } from './rabbit-harness';

jest.setTimeout(60_000);

/** The management API samples its counters every 5 s: waits on them are given that much and more. */
const STATS_MS = 20_000;

/** One delivery of a message: its id and the attempt the bus counts in a header. */
function delivery(msg: ConsumeMessage): string {
  return `${String(msg.properties.messageId)}#${Number(msg.properties.headers?.[HEADERS.attempt] ?? 1)}`;
}

describe('RabbitMQ bus: acknowledgements in batches', () => {
  const env = new RabbitEnv();
  const buses: EventBus[] = [];
  /** Every `basic.ack` frame a channel of this process sends. */
  let ackFrames: jest.SpyInstance<void, Parameters<Channel['ack']>>;
  let consumes: jest.SpyInstance<ReturnType<Channel['consume']>, Parameters<Channel['consume']>>;
  /**
   * The delivery each unacknowledged tag carried (`id#attempt`), per consumer channel, recorded as the broker hands
   * them over and forgotten once an ack frame covers them.
   */
  const tagsByChannel = new WeakMap<Channel, Map<number, string>>();
  /** Deliveries (`id#attempt`) whose handler is running now (`watched`). */
  let running = new Set<string>();
  /** Deliveries an ack frame settled while their handler was still running. */
  let ackedWhileRunning: string[] = [];

  beforeAll(async () => {
    await env.setUp();
    const probe = await env.side.createChannel();
    const channel = Object.getPrototypeOf(probe) as Channel;
    await probe.close();
    const { ack, consume } = channel;
    consumes = jest.spyOn(channel, 'consume').mockImplementation(function (
      this: Channel,
      queue,
      onMessage,
      options,
    ) {
      const tags = tagsByChannel.get(this) ?? new Map<number, string>();
      tagsByChannel.set(this, tags);
      return consume.call(
        this,
        queue,
        (msg) => {
          if (msg) tags.set(msg.fields.deliveryTag, delivery(msg));
          onMessage(msg);
        },
        options,
      );
    });
    ackFrames = jest.spyOn(channel, 'ack').mockImplementation(function (this: Channel, msg, multiple) {
      const tag = msg.fields.deliveryTag;
      const tags = tagsByChannel.get(this) ?? new Map<number, string>();
      for (const [t, key] of tags) {
        if (multiple ? t > tag : t !== tag) continue;
        if (running.has(key)) ackedWhileRunning.push(key);
        tags.delete(t);
      }
      ack.call(this, msg, multiple);
    });
  });
  afterAll(async () => {
    ackFrames.mockRestore();
    consumes.mockRestore();
    await env.tearDown();
  });
  beforeEach(() => {
    ackFrames.mockClear();
    running = new Set();
    ackedWhileRunning = [];
  });
  afterEach(async () => {
    env.proxy.restore();
    await Promise.all(buses.splice(0).map((b) => b.close()));
  });

  async function startBus(
    opts: Partial<RabbitBusOptions> = {},
  ): Promise<{ bus: EventBus; registry: Registry }> {
    const registry = new Registry();
    const bus = env.createBus({ ...TEST_OPTIONS, ...opts, registry });
    buses.push(bus);
    await bus.start();
    return { bus, registry };
  }

  /** The handler, with the ids it is running kept in `running`. */
  function watched(handle: Subscription['handle']): Subscription['handle'] {
    return async (m, ctx) => {
      const key = `${m.id}#${ctx.attempt}`;
      running.add(key);
      try {
        await handle(m, ctx);
      } finally {
        running.delete(key);
      }
    };
  }

  /** Counts handler runs per message id. */
  function tally() {
    const runs = new Map<string, number>();
    return {
      runs,
      add: (id: string) => runs.set(id, (runs.get(id) ?? 0) + 1),
      twice: () => [...runs].filter(([, n]) => n > 1).map(([id]) => id),
    };
  }

  /** After the bus that consumed the queue is gone: a new consumer is handed nothing, so nothing was left unacked. */
  async function expectNothingRedelivered(sub: Pick<Subscription, 'queue' | 'events'>): Promise<void> {
    const { bus } = await startBus();
    const redelivered: string[] = [];
    await bus.subscribe({ ...sub, handle: async (m) => void redelivered.push(m.id) });
    await sleep(1_000);
    expect(redelivered).toEqual([]);
  }

  test('when handlers finish out of delivery order, then every message is handled once and acknowledged', async () => {
    const { event, queue } = names('out-of-order');
    const { bus, registry } = await startBus({ prefetch: 20 });
    const handled = tally();
    await bus.subscribe({
      queue,
      events: [event],
      handle: watched(async (m) => {
        await sleep(Math.random() * 15);
        handled.add(m.id);
      }),
    });
    const sent = Array.from({ length: 300 }, () => message(event));
    await bus.publish(sent);

    await eventually(() => expect(handled.runs.size).toBe(300), 'every message handled', 20_000);
    await eventually(
      async () => expect((await env.queueInfo(queue)).message_stats?.ack).toBe(300),
      'the broker to count 300 acks',
      STATS_MS,
    );
    expect(await counterValue(registry, 'bus_consumed_total', { queue, event })).toBe(300);
    expect(ackFrames.mock.calls.length).toBeLessThan(300);
    expect(ackedWhileRunning).toEqual([]);
    await bus.close();
    await expectNothingRedelivered({ queue, events: [event] });
    // An ack sent twice or for a tag still running closes the channel, and the broker hands its messages out again.
    expect(handled.twice()).toEqual([]);
  });

  test('when a slow handler holds the lowest tag and the connection is lost, then only the slow message is delivered again', async () => {
    const { event, queue } = names('slow-low-tag');
    const { bus } = await startBus({ prefetch: 10 });
    const handled = tally();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = message(event);
    await bus.subscribe({
      queue,
      events: [event],
      handle: watched(async (m) => {
        handled.add(m.id);
        if (m.id === slow.id) await released;
      }),
    });
    await bus.publish([slow]);
    await eventually(() => expect(handled.runs.get(slow.id)).toBe(1), 'the slow handler to start');
    const fast = Array.from({ length: 9 }, () => message(event));
    await bus.publish(fast);
    await eventually(() => expect(handled.runs.size).toBe(10), 'the fast handlers');
    // The broker has taken the nine acks; a multiple ack up to the highest tag would have taken the slow one's too.
    await eventually(
      async () => expect((await env.queueInfo(queue)).message_stats?.ack).toBeGreaterThanOrEqual(9),
      'the fast messages acknowledged',
      STATS_MS,
    );
    expect(ackedWhileRunning).toEqual([]);

    env.proxy.cut(); // a crash while the slow handler runs
    await eventually(() => expect(bus.ready()).toBe(false), 'the bus to notice the cut');
    release();
    env.proxy.restore();

    await eventually(() => expect(handled.runs.get(slow.id)).toBe(2), 'the slow message again', 20_000);
    await sleep(500);
    expect(handled.twice()).toEqual([slow.id]);
  });

  test('when some handlers fail amid successes, then failures are retried or dead-lettered and nothing else comes back', async () => {
    const { event, queue } = names('failures-amid-successes');
    const { bus, registry } = await startBus({ prefetch: 10 });
    const sent = Array.from({ length: 60 }, () => message(event));
    const poison = new Set(sent.filter((_, i) => i % 6 === 0).map((m) => m.id));
    const flaky = new Set(sent.filter((_, i) => i % 6 === 3).map((m) => m.id));
    const firstAttempts = tally();
    const succeeded = tally();
    await bus.subscribe({
      queue,
      events: [event],
      handle: watched(async (m, ctx) => {
        await sleep(Math.random() * 10);
        if (ctx.attempt === 1) firstAttempts.add(m.id);
        if (poison.has(m.id) || (flaky.has(m.id) && ctx.attempt === 1)) throw new Error('failing on purpose');
        succeeded.add(m.id);
      }),
    });
    await bus.publish(sent);

    const dead = await eventually(async () => {
      const d = await env.deadLetters(queue);
      expect(d).toHaveLength(poison.size);
      return d;
    }, 'the poison messages dead-lettered');
    expect(new Set(dead.map((d) => d.message?.id))).toEqual(poison);
    await eventually(() => expect(succeeded.runs.size).toBe(sent.length - poison.size), 'the rest handled');
    await eventually(async () => {
      expect(await counterValue(registry, 'bus_consumed_total', { queue, event })).toBe(50);
      expect(await counterValue(registry, 'bus_retried_total', { queue, event })).toBe(
        poison.size * (TEST_OPTIONS.maxAttempts - 1) + flaky.size,
      );
      expect(await counterValue(registry, 'bus_dead_lettered_total', { queue, event })).toBe(poison.size);
    }, 'the counters');
    await bus.close();
    await expectNothingRedelivered({ queue, events: [event] });
    expect(firstAttempts.twice()).toEqual([]);
    expect(succeeded.twice()).toEqual([]);
    expect(ackedWhileRunning).toEqual([]);
  });

  test('when 200 messages arrive in a burst, then the broker acknowledges all of them from far fewer ack frames', async () => {
    const { event, queue } = names('burst');
    const { bus } = await startBus();
    const handled = tally();
    await bus.subscribe({ queue, events: [event], handle: async (m) => void handled.add(m.id) });
    await bus.publish(Array.from({ length: 200 }, () => message(event)));

    await eventually(
      async () => expect((await env.queueInfo(queue)).message_stats?.ack).toBe(200),
      'the broker to count 200 acks',
      STATS_MS,
    );
    const frames = ackFrames.mock.calls;
    expect(frames.length).toBeLessThanOrEqual(50);
    expect(frames.some(([, multiple]) => multiple === true)).toBe(true);
    expect(handled.runs.size).toBe(200);
  });

  test('when the window is 0, then every delivery is acknowledged alone at once', async () => {
    const { event, queue } = names('no-window');
    const { bus } = await startBus({ ackWindowMs: 0 });
    const handled = tally();
    await bus.subscribe({ queue, events: [event], handle: async (m) => void handled.add(m.id) });
    await bus.publish(Array.from({ length: 50 }, () => message(event)));

    await eventually(() => expect(ackFrames.mock.calls).toHaveLength(50), 'an ack per message');
    expect(ackFrames.mock.calls.every(([, multiple]) => multiple === false)).toBe(true);
  });

  test('when the bus closes with acks still gathered, then it sends them before the connection closes', async () => {
    const { event, queue } = names('close-flushes');
    const { bus } = await startBus({ prefetch: 50, ackWindowMs: 60_000 });
    const handled = tally();
    await bus.subscribe({ queue, events: [event], handle: async (m) => void handled.add(m.id) });
    await bus.publish(Array.from({ length: 20 }, () => message(event)));
    await eventually(() => expect(handled.runs.size).toBe(20), 'every message handled');
    expect(ackFrames).not.toHaveBeenCalled(); // still gathered: the window is long and the prefetch not full

    await bus.close();
    await expectNothingRedelivered({ queue, events: [event] });
  });

  test('when a consumer is paused with acks still gathered, then it sends them first and nothing comes back on resume', async () => {
    const { event, queue } = names('pause-flushes');
    const { bus } = await startBus({ prefetch: 50, ackWindowMs: 60_000 });
    const handled = tally();
    await bus.subscribe({ queue, events: [event], handle: async (m) => void handled.add(m.id) });
    await bus.publish(Array.from({ length: 20 }, () => message(event)));
    await eventually(() => expect(handled.runs.size).toBe(20), 'every message handled');

    await bus.pause!(queue);
    // The connection is lost while paused: acks not sent by then are lost with it, and their messages queued again.
    env.proxy.cut();
    await eventually(() => expect(bus.ready()).toBe(false), 'the bus to notice the cut');
    env.proxy.restore();
    await eventually(() => expect(bus.ready()).toBe(true), 'the reconnect');
    await bus.resume!(queue);
    await sleep(1_000);
    expect(handled.twice()).toEqual([]);
  });

  test('when the channel closes with acks gathered, then they are dropped and the broker delivers those messages again', async () => {
    const { event, queue } = names('closed-drops');
    const { bus } = await startBus({ prefetch: 50, ackWindowMs: 60_000 });
    const handled = tally();
    await bus.subscribe({ queue, events: [event], handle: async (m) => void handled.add(m.id) });
    const sent = Array.from({ length: 5 }, () => message(event));
    await bus.publish(sent);
    await eventually(() => expect(handled.runs.size).toBe(5), 'every message handled');

    env.blip(200);
    await eventually(
      () => expect(handled.twice().sort()).toEqual(sent.map((m) => m.id).sort()),
      'redelivery',
    );
    expect(ackFrames).not.toHaveBeenCalled();
  });
});

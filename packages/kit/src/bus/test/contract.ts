import { eventually } from '@readiness/testing';
import { randomUUID } from 'node:crypto';
import { create, AdminCreatedSchema, encodePayload } from '@readiness/contracts';
import { Registry } from 'prom-client';
import { NotYetError } from '../../errors';
import { currentContext } from '../../logger';
import type { BusMessage, DeadLetter, EventBus, HandlerContext } from '../types';

/** What the contract suite needs from a bus under test, through its own transport. */
export interface BusHarness {
  bus: EventBus;
  registry: Registry;
  /** Publishes bytes as a misbehaving producer would, bypassing the bus's encoding. */
  injectRaw(routingKey: string, body: Uint8Array): Promise<void>;
  /** What the queue's dead-letter queue holds (read through the transport, accumulated across calls). */
  deadLetters(queue: string): Promise<DeadLetter[]>;
  /** Breaks the consumer's link right now, as a crash between a handler's commit and its ack would; heals later. */
  killBeforeAck(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  maxAttempts: number;
  retryDelaysMs: number[];
}

export const TEST_OPTIONS: HarnessOptions = { maxAttempts: 4, retryDelaysMs: [50, 100, 200] };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let counter = 0;
/** Names unique per test, so tests sharing a broker vhost never see each other's messages. */
export function names(label: string) {
  counter += 1;
  const n = `${label}-${counter}-${randomUUID().slice(0, 8)}`;
  return { event: `test.${n}.happened.v1`, queue: `svc.${n}` };
}

export function message(name: string, overrides: Partial<BusMessage> = {}): BusMessage {
  return {
    id: randomUUID(),
    name,
    occurredAt: new Date('2025-01-02T03:04:05.000Z'),
    correlationId: randomUUID(),
    payload: new TextEncoder().encode(`payload of ${name}`),
    ...overrides,
  };
}

function expectSame(received: BusMessage, sent: BusMessage) {
  expect(received.id).toBe(sent.id);
  expect(received.name).toBe(sent.name);
  expect(received.correlationId).toBe(sent.correlationId);
  expect(received.occurredAt.toISOString()).toBe(sent.occurredAt.toISOString());
  expect(Buffer.from(received.payload).equals(Buffer.from(sent.payload))).toBe(true);
}

export async function counterValue(
  registry: Registry,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  const match = metric?.values.find((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val));
  return match?.value ?? 0;
}

/** The delivery contract both buses promise; the inbox/outbox code relies on exactly this. */
export function busContract(makeHarness: (opts: HarnessOptions) => Promise<BusHarness>): void {
  let h: BusHarness;

  beforeEach(async () => {
    h = await makeHarness(TEST_OPTIONS);
  });
  afterEach(async () => {
    await h.close();
  });

  test('when an event is published, then the subscribed handler receives the same id, name, payload and correlation id', async () => {
    const { event, queue } = names('basic');
    const received: Array<{ msg: BusMessage; ctx: HandlerContext; correlationId?: string }> = [];
    await h.bus.subscribe({
      queue,
      events: [event],
      handle: async (msg, ctx) => {
        received.push({ msg, ctx, correlationId: currentContext().correlationId });
      },
    });
    const sent = message(event);
    await h.bus.publish([sent]);

    await eventually(() => expect(received).toHaveLength(1), 'delivery');
    const [first] = received;
    expectSame(first!.msg, sent);
    expect(first!.ctx).toEqual({ attempt: 1, queue });
    expect(first!.correlationId).toBe(sent.correlationId);
    await eventually(
      async () => expect(await counterValue(h.registry, 'bus_consumed_total', { queue, event })).toBe(1),
      'the metric',
    );
  });

  test('when publish is called, then the handler is not run inside the publish call', async () => {
    const { event, queue } = names('async');
    let calls = 0;
    await h.bus.subscribe({ queue, events: [event], handle: async () => void (calls += 1) });
    const published = h.bus.publish([message(event)]);
    expect(calls).toBe(0);
    await published;
    await eventually(() => expect(calls).toBe(1), 'delivery');
  });

  test('when a batch is published, then every message of it reaches the handler', async () => {
    const { event, queue } = names('batch');
    const seen = new Set<string>();
    await h.bus.subscribe({ queue, events: [event], handle: async (m) => void seen.add(m.id) });
    const batch = Array.from({ length: 50 }, () => message(event));
    await h.bus.publish(batch);
    await eventually(() => expect(seen.size).toBe(50), 'the whole batch');
    expect([...seen].sort()).toEqual(batch.map((m) => m.id).sort());
  });

  test('when the same event is delivered three times, then the handler receives it three times', async () => {
    const { event, queue } = names('dup');
    const ids: string[] = [];
    await h.bus.subscribe({ queue, events: [event], handle: async (m) => void ids.push(m.id) });
    const sent = message(event);
    for (let i = 0; i < 3; i += 1) await h.bus.publish([sent]);
    await eventually(() => expect(ids).toEqual([sent.id, sent.id, sent.id]), 'three deliveries');
  });

  test('when the same event is delivered three times to an inbox-style handler, then it has one effect', async () => {
    const { event, queue } = names('inbox');
    const processed = new Set<string>();
    const effects: string[] = [];
    let deliveries = 0;
    await h.bus.subscribe({
      queue,
      events: [event],
      handle: async (m) => {
        deliveries += 1;
        if (processed.has(m.id)) return; // the inbox's primary key: seen before, ack without effect
        processed.add(m.id);
        effects.push(m.id);
      },
    });
    const sent = message(event);
    await h.bus.publish([sent, sent, sent]);
    await eventually(() => expect(deliveries).toBe(3), 'three deliveries');
    expect(effects).toEqual([sent.id]);
  });

  test('when two handlers subscribe to one event, then each gets its own copy and a failing one does not hold up the other', async () => {
    const { event, queue } = names('fanout');
    const good: string[] = [];
    let badAttempts = 0;
    await h.bus.subscribe({
      queue: `${queue}-good`,
      events: [event],
      handle: async (m) => void good.push(m.id),
    });
    await h.bus.subscribe({
      queue: `${queue}-bad`,
      events: [event],
      handle: async () => {
        badAttempts += 1;
        throw new Error('always fails');
      },
    });
    const sent = message(event);
    await h.bus.publish([sent]);
    await eventually(() => expect(good).toEqual([sent.id]), 'the healthy handler');
    await eventually(
      async () => expect(await h.deadLetters(`${queue}-bad`)).toHaveLength(1),
      'the dead letter',
    );
    expect(badAttempts).toBe(TEST_OPTIONS.maxAttempts);
    expect(await h.deadLetters(`${queue}-good`)).toHaveLength(0);
  });

  test('when a handler fails once, then the retry succeeds with attempt 2 and nothing is dead-lettered', async () => {
    const { event, queue } = names('flaky');
    const attempts: number[] = [];
    await h.bus.subscribe({
      queue,
      events: [event],
      handle: async (_m, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt === 1) throw new Error('database restarting');
      },
    });
    await h.bus.publish([message(event)]);
    await eventually(() => expect(attempts).toEqual([1, 2]), 'the retry');
    await sleep(300);
    expect(attempts).toEqual([1, 2]);
    expect(await h.deadLetters(queue)).toHaveLength(0);
    await eventually(
      async () => expect(await counterValue(h.registry, 'bus_retried_total', { queue, event })).toBe(1),
      'the metric',
    );
  });

  test('when a handler keeps failing, then it is tried maxAttempts times, dead-lettered with its error, and the next message is handled', async () => {
    const { event, queue } = names('poison');
    const poison = message(event);
    const next = message(event);
    const attempts: number[] = [];
    const handled: string[] = [];
    await h.bus.subscribe({
      queue,
      events: [event],
      handle: async (m, ctx) => {
        if (m.id === poison.id) {
          attempts.push(ctx.attempt);
          throw new Error(`cannot process ${m.id}`);
        }
        handled.push(m.id);
      },
    });
    await h.bus.publish([poison]);
    await h.bus.publish([next]);

    // The poison message waits for its retries without blocking the next one.
    await eventually(() => expect(handled).toEqual([next.id]), 'the next message');
    const dead = await eventually(async () => {
      const d = await h.deadLetters(queue);
      expect(d).toHaveLength(1);
      return d;
    }, 'the dead letter');
    expect(attempts).toEqual([1, 2, 3, 4]);
    expect(dead[0]!.message?.id).toBe(poison.id);
    expect(dead[0]!.error).toBe(`cannot process ${poison.id}`);
    expect(dead[0]!.attempts).toBe(TEST_OPTIONS.maxAttempts);
    await eventually(
      async () =>
        expect(
          await counterValue(h.registry, 'bus_dead_lettered_total', {
            queue,
            event,
            reason: 'attempts_exhausted',
          }),
        ).toBe(1),
      'the metric',
    );
  });

  test('when a subscription sets its own maxAttempts, then it is dead-lettered after that many', async () => {
    const { event, queue } = names('max');
    let attempts = 0;
    await h.bus.subscribe({
      queue,
      events: [event],
      maxAttempts: 2,
      handle: async () => {
        attempts += 1;
        throw new Error('nope');
      },
    });
    await h.bus.publish([message(event)]);
    await eventually(async () => expect(await h.deadLetters(queue)).toHaveLength(1), 'the dead letter');
    expect(attempts).toBe(2);
  });

  test('when a handler says its message is not ready yet, then it is retried past maxAttempts until it succeeds, and a later ordinary failure still gets its own attempts', async () => {
    const { event, queue } = names('not-yet');
    const attempts: number[] = [];
    const waits = TEST_OPTIONS.maxAttempts + 2;
    await h.bus.subscribe({
      queue,
      events: [event],
      handle: async (_m, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt <= waits) throw new NotYetError('the version has not arrived yet');
        if (ctx.attempt === waits + 1) throw new Error('database restarting');
      },
    });
    await h.bus.publish([message(event)]);
    await eventually(() => expect(attempts).toHaveLength(waits + 2), 'the retries', 15_000);
    expect(attempts).toEqual(Array.from({ length: waits + 2 }, (_, i) => i + 1));
    expect(await h.deadLetters(queue)).toHaveLength(0);
  });

  test('when a message stays not ready past the wait horizon, then it is dead-lettered as expired', async () => {
    const { event, queue } = names('not-yet-expired');
    let attempts = 0;
    await h.bus.subscribe({
      queue,
      events: [event],
      waitHorizonMs: 150,
      handle: async () => {
        attempts += 1;
        throw new NotYetError('the version has not arrived yet');
      },
    });
    await h.bus.publish([message(event)]);
    const dead = await eventually(async () => {
      const d = await h.deadLetters(queue);
      expect(d).toHaveLength(1);
      return d;
    }, 'the dead letter');
    expect(attempts).toBeGreaterThan(1);
    expect(dead[0]!.error).toBe('the version has not arrived yet');
    await eventually(
      async () =>
        expect(
          await counterValue(h.registry, 'bus_dead_lettered_total', { queue, event, reason: 'wait_expired' }),
        ).toBe(1),
      'the metric',
    );
  });

  test('when a malformed message arrives, then it goes to the DLQ at once and the next message is handled', async () => {
    const { event, queue } = names('malformed');
    const handled: string[] = [];
    await h.bus.subscribe({ queue, events: [event], handle: async (m) => void handled.push(m.id) });
    await h.injectRaw(event, new TextEncoder().encode('{"this":"is json, not an envelope"}'));
    const next = message(event);
    await h.bus.publish([next]);

    await eventually(() => expect(handled).toEqual([next.id]), 'the next message');
    const dead = await eventually(async () => {
      const d = await h.deadLetters(queue);
      expect(d).toHaveLength(1);
      return d;
    }, 'the dead letter');
    expect(dead[0]!.message).toBeUndefined();
    expect(dead[0]!.error).toMatch(/malformed envelope/);
    expect(dead[0]!.attempts).toBe(1);
    await eventually(
      async () =>
        expect(
          await counterValue(h.registry, 'bus_dead_lettered_total', {
            queue,
            event: 'unknown',
            reason: 'malformed',
          }),
        ).toBe(1),
      'the metric',
    );
  });

  test('when a payload does not match its registered contract, then it is dead-lettered without reaching the handler', async () => {
    const { queue } = names('contract');
    const event = 'auth.admin.created.v1';
    const handled: string[] = [];
    await h.bus.subscribe({ queue, events: [event], handle: async (m) => void handled.push(m.id) });
    const bad = message(event, { payload: Uint8Array.from([0xff, 0xff, 0xff, 0xff]) });
    const good = message(event, {
      payload: encodePayload(
        event,
        create(AdminCreatedSchema, { adminId: 'a1', name: 'Ada', email: 'ada@example.org' }),
      ),
    });
    await h.bus.publish([bad, good]);

    await eventually(() => expect(handled).toEqual([good.id]), 'the valid message');
    const dead = await eventually(async () => {
      const d = await h.deadLetters(queue);
      expect(d).toHaveLength(1);
      return d;
    }, 'the dead letter');
    expect(dead[0]!.message?.id).toBe(bad.id);
    expect(dead[0]!.error).toMatch(/payload does not match auth\.admin\.created\.v1/);
  });

  test('when the consumer dies between its effect and the ack, then the message is redelivered and an inbox dedupe keeps one effect', async () => {
    const { event, queue } = names('crash');
    const processed = new Set<string>();
    const effects: string[] = [];
    let deliveries = 0;
    let crashed = false;
    // The delivery can arrive before the publisher's confirm: the crash waits for the confirm, so that it is the
    // consumer that dies, not the publish that is still in flight on the same connection.
    let confirmed!: () => void;
    const published = new Promise<void>((resolve) => (confirmed = resolve));
    await h.bus.subscribe({
      queue,
      events: [event],
      handle: async (m) => {
        deliveries += 1;
        if (!processed.has(m.id)) {
          processed.add(m.id); // the effect and its inbox row commit together
          effects.push(m.id);
        }
        if (!crashed) {
          crashed = true;
          await published;
          await h.killBeforeAck();
        }
      },
    });
    const sent = message(event);
    await h.bus.publish([sent]);
    confirmed();
    await eventually(() => expect(deliveries).toBe(2), 'the redelivery', 15_000);
    expect(effects).toEqual([sent.id]);
  });

  test('when a queue is bound on demand, then it takes no event at first, `add` widens what it takes and `exactly` narrows it', async () => {
    const { queue } = names('on-demand');
    const [one, two] = [names('on-demand-one').event, names('on-demand-two').event];
    const seen: string[] = [];
    await h.bus.subscribe({
      queue,
      events: [one, two],
      onDemand: true,
      handle: async (m) => void seen.push(m.id),
    });
    /** Publishes `first` then `last` (FIFO in the queue): once `last` is in, `first` came before it or never. */
    const publishPair = async (first: string, last: string) => {
      const pair = [message(first), message(last)];
      for (const m of pair) await h.bus.publish([m]);
      return pair.map((m) => m.id);
    };

    const before = message(one);
    await h.bus.publish([before]);
    await h.bus.bindOnDemand(queue, [one], 'add');
    const [unbound, bound] = await publishPair(two, one);
    await eventually(() => expect(seen).toContain(bound), 'the bound event');
    expect(seen).toEqual([bound]);
    expect(seen).not.toContain(before.id);
    expect(seen).not.toContain(unbound);

    await h.bus.bindOnDemand(queue, [two], 'add');
    const both = await publishPair(one, two);
    await eventually(() => expect(seen).toEqual([bound, ...both]), 'both events, after add');

    await h.bus.bindOnDemand(queue, [two], 'exactly');
    const [dropped, kept] = await publishPair(one, two);
    await eventually(() => expect(seen).toContain(kept), 'the event still bound');
    expect(seen).not.toContain(dropped);

    await expect(h.bus.bindOnDemand(queue, [names('stranger').event], 'add')).rejects.toThrow(
      /does not take/,
    );
    // Unbinding what was never bound is no error.
    const other = names('on-demand-other');
    await h.bus.subscribe({
      queue: other.queue,
      events: [other.event],
      onDemand: true,
      handle: async () => undefined,
    });
    await expect(h.bus.bindOnDemand(other.queue, [], 'exactly')).resolves.toBeUndefined();
    const plain = names('plain');
    await h.bus.subscribe({ queue: plain.queue, events: [plain.event], handle: async () => undefined });
    await expect(h.bus.bindOnDemand(plain.queue, [plain.event], 'add')).rejects.toThrow(
      /not an on-demand queue/,
    );
  });

  test('when an event has no subscriber, then publish still resolves', async () => {
    const { event } = names('nobody');
    await expect(h.bus.publish([message(event)])).resolves.toBeUndefined();
    await eventually(
      async () => expect(await counterValue(h.registry, 'bus_published_total', { event })).toBe(1),
      'the metric',
    );
  });

  test('when the bus closes while a handler runs, then close waits for the handler to finish', async () => {
    const { event, queue } = names('close');
    let started = false;
    let finished = false;
    await h.bus.subscribe({
      queue,
      events: [event],
      handle: async () => {
        started = true;
        await sleep(300);
        finished = true;
      },
    });
    await h.bus.publish([message(event)]);
    await eventually(() => expect(started).toBe(true), 'the handler to start');
    await h.bus.close();
    expect(finished).toBe(true);
    expect(h.bus.ready()).toBe(false);
    await expect(h.bus.publish([message(event)])).rejects.toMatchObject({ code: 'bus_closed' });
  });
}

import pino from 'pino';
import { createMemoryBus, type MemoryBus } from '../memory';
import { message, names } from './contract';

const logger = pino({ level: 'silent' });

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Subscribes a handler that counts its calls before running `effect`; returns the live count. */
async function countingHandler(bus: MemoryBus, label: string, effect: () => Promise<void>) {
  const { event, queue } = names(label);
  const counter = { calls: 0, event };
  await bus.subscribe({
    queue,
    events: [event],
    handle: async () => {
      counter.calls += 1;
      await effect();
    },
  });
  return counter;
}

const called = async (counter: { calls: number }) => {
  while (counter.calls === 0) await new Promise((r) => setTimeout(r, 10));
};

const settledYet = async (p: Promise<unknown>) => {
  let settled = false;
  void p.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((r) => setTimeout(r, 50));
  return settled;
};

describe('in-process bus confirming a publish after every handler (all-in-one relays)', () => {
  test('when a message goes to two queues, then publish resolves only after both handlers finished', async () => {
    const bus = createMemoryBus({ logger, confirmAfterHandlers: true });
    const { event, queue } = names('confirm');
    const slow = gate();
    const done: string[] = [];
    await bus.subscribe({ queue: `${queue}.a`, events: [event], handle: async () => void done.push('a') });
    await bus.subscribe({
      queue: `${queue}.b`,
      events: [event],
      handle: async () => {
        await slow.opened;
        done.push('b');
      },
    });
    await bus.start();
    try {
      const published = bus.publish([message(event)]);
      expect(await settledYet(published)).toBe(false);
      slow.open();
      await published;
      expect(done.sort()).toEqual(['a', 'b']);
    } finally {
      await bus.close();
    }
  });

  test('when the bus closes while a handler waits for its retry, then the publish rejects, so the outbox row stays pending', async () => {
    const bus = createMemoryBus({ logger, confirmAfterHandlers: true, retryDelaysMs: [60_000] });
    const handler = await countingHandler(bus, 'confirm-close', async () => {
      throw new Error('effect failed');
    });
    await bus.start();
    const published = bus.publish([message(handler.event)]);
    published.catch(() => undefined);
    await called(handler);
    await bus.close();
    await expect(published).rejects.toThrow(/closed/);
  });

  test('when a message is published again while its first delivery is still running, then its handler runs once and both publishes resolve', async () => {
    const bus = createMemoryBus({ logger, confirmAfterHandlers: true });
    const slow = gate();
    const handler = await countingHandler(bus, 'confirm-again', () => slow.opened);
    await bus.start();
    try {
      const msg = message(handler.event);
      const first = bus.publish([msg]);
      await called(handler);
      const second = bus.publish([msg]);
      slow.open();
      await Promise.all([first, second]);
      expect(handler.calls).toBe(1);
    } finally {
      await bus.close();
    }
  });

  test('when a queue is paused, then the publish waits for it, a republish is not handled again by the queue that finished, and resuming confirms both', async () => {
    const bus = createMemoryBus({ logger, confirmAfterHandlers: true });
    const { event, queue } = names('confirm-paused');
    const done: string[] = [];
    await bus.subscribe({
      queue: `${queue}.now`,
      events: [event],
      handle: async () => void done.push('now'),
    });
    await bus.subscribe({
      queue: `${queue}.later`,
      events: [event],
      handle: async () => void done.push('later'),
    });
    await bus.start();
    try {
      await bus.pause(`${queue}.later`);
      const msg = message(event);
      const first = bus.publish([msg]);
      await called({
        get calls() {
          return done.length;
        },
      });
      // The relay gave up waiting and publishes the row again.
      const second = bus.publish([msg]);
      expect(await settledYet(Promise.race([first, second]))).toBe(false);
      expect(done).toEqual(['now']);
      await bus.resume(`${queue}.later`);
      await Promise.all([first, second]);
      expect(done).toEqual(['now', 'later']);
      // Once every queue has handled it, another republish is confirmed at once.
      await bus.publish([msg]);
      expect(done).toEqual(['now', 'later']);
    } finally {
      await bus.close();
    }
  });

  test('when a message has no subscriber in the process, then publish resolves at once', async () => {
    const bus = createMemoryBus({ logger, confirmAfterHandlers: true });
    await bus.start();
    try {
      await bus.publish([message(names('nobody').event)]);
      expect(bus.unroutedCount()).toBe(1);
    } finally {
      await bus.close();
    }
  });
});

import pino from 'pino';
import { createMemoryBus } from '../memory';
import { message, names } from './contract';

const logger = pino({ level: 'silent' });

describe('in-process bus: one instance shared by every service of the process', () => {
  test('when two services start the shared bus and one closes it, then the other keeps receiving until the last close', async () => {
    const bus = createMemoryBus({ logger, retryDelaysMs: [10] });
    const { event } = names('shared');
    const results: string[] = [];
    const reports: string[] = [];
    // Each service subscribes its own queue on the one instance and starts it.
    await bus.subscribe({
      queue: 'results.score',
      events: [event],
      handle: async (m) => void results.push(m.id),
    });
    await bus.start();
    await bus.subscribe({
      queue: 'report.render',
      events: [event],
      handle: async (m) => void reports.push(m.id),
    });
    await bus.start();

    const first = message(event);
    await bus.publish([first]);
    await bus.drain();
    expect(results).toEqual([first.id]);
    expect(reports).toEqual([first.id]);

    await bus.close();
    expect(bus.ready()).toBe(true);
    const second = message(event);
    await bus.publish([second]);
    await bus.drain();
    expect(results).toEqual([first.id, second.id]);

    await bus.close();
    expect(bus.ready()).toBe(false);
  });

  test('when messages are retried, then drain waits for the retries and the dead letters are inspectable', async () => {
    const bus = createMemoryBus({ logger, maxAttempts: 3, retryDelaysMs: [20, 40] });
    const { event, queue } = names('drain');
    const attempts: number[] = [];
    await bus.subscribe({
      queue,
      events: [event],
      handle: async (_m, ctx) => {
        attempts.push(ctx.attempt);
        throw new Error('down');
      },
    });
    await bus.start();
    const sent = message(event);
    await bus.publish([sent]);
    await bus.drain();

    expect(attempts).toEqual([1, 2, 3]);
    expect(bus.deadLetters(queue).map((m) => m.id)).toEqual([sent.id]);
    expect(bus.deadLetterRecords(queue)[0]).toMatchObject({ error: 'down', attempts: 3, routingKey: event });
    await bus.close();
  });

  test('when messages are published before start, then they are delivered once the bus starts', async () => {
    const bus = createMemoryBus({ logger });
    const { event, queue } = names('early');
    const got: string[] = [];
    await bus.subscribe({ queue, events: [event], handle: async (m) => void got.push(m.id) });
    const sent = message(event);
    await bus.publish([sent]);
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toEqual([]);
    await bus.start();
    await bus.drain();
    expect(got).toEqual([sent.id]);
    await bus.close();
  });

  test('when a queue binds a topic pattern, then it receives every matching event and the rest counts as unrouted', async () => {
    const bus = createMemoryBus({ logger });
    const got: string[] = [];
    await bus.subscribe({
      queue: 'audit.everything',
      events: ['audit.#'],
      handle: async (m) => void got.push(m.name),
    });
    await bus.start();
    await bus.publish([
      message('audit.a.happened.v1'),
      message('audit.b.changed.v1'),
      message('other.c.happened.v1'),
    ]);
    await bus.drain();
    expect(got.sort()).toEqual(['audit.a.happened.v1', 'audit.b.changed.v1']);
    expect(bus.unroutedCount()).toBe(1);
    await bus.close();
  });
});

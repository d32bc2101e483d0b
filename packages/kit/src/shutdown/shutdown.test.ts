import { createLogger } from '../logger';
import { Shutdown } from './index';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = {
    write(chunk: string) {
      for (const line of chunk.split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  };
  return { lines, logger: createLogger({ name: 'shutdown-test', level: 'info', destination }) };
}

describe('Shutdown', () => {
  test('when run, then steps run in the reverse order of registration', async () => {
    const { logger } = capture();
    const order: string[] = [];
    const shutdown = new Shutdown(logger);
    shutdown.add('database', async () => {
      order.push('database');
    });
    shutdown.add('bus', () => {
      order.push('bus');
    });
    shutdown.add('http', async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      order.push('http');
    });
    await shutdown.run();
    expect(order).toEqual(['http', 'bus', 'database']);
  });

  test('when a step fails, then the others still run and the failure is logged', async () => {
    const { logger, lines } = capture();
    const order: string[] = [];
    const shutdown = new Shutdown(logger);
    shutdown.add('database', () => {
      order.push('database');
    });
    shutdown.add('bus', async () => {
      throw new Error('channel already closed');
    });
    shutdown.add('sync-throw', () => {
      throw new Error('boom');
    });
    shutdown.add('http', () => {
      order.push('http');
    });
    await expect(shutdown.run()).resolves.toBeUndefined();
    expect(order).toEqual(['http', 'database']);
    const failures = lines.filter((l) => l.msg === 'shutdown step failed').map((l) => l.step);
    expect(failures).toEqual(['sync-throw', 'bus']);
  });

  test('when a step never finishes, then it times out and the next steps run', async () => {
    const { logger, lines } = capture();
    const order: string[] = [];
    const shutdown = new Shutdown(logger, 50);
    shutdown.add('database', () => {
      order.push('database');
    });
    shutdown.add('stuck', () => new Promise<void>(() => undefined));
    const started = Date.now();
    await shutdown.run();
    expect(order).toEqual(['database']);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(lines.find((l) => l.step === 'stuck')).toMatchObject({
      err: { message: expect.stringContaining('timed out') },
    });
  });

  test('when run is called twice, then every step runs once and both calls wait for the end', async () => {
    const { logger } = capture();
    let runs = 0;
    const shutdown = new Shutdown(logger);
    shutdown.add('http', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      runs += 1;
    });
    const first = shutdown.run();
    const second = shutdown.run();
    await Promise.all([first, second]);
    await shutdown.run();
    expect(runs).toBe(1);
  });

  test('when a signal arrives, then the steps run and the exit callback gets 0', async () => {
    const { logger } = capture();
    const shutdown = new Shutdown(logger);
    let closed = false;
    shutdown.add('http', () => {
      closed = true;
    });
    const before = process.listeners('SIGINT');
    const exited = new Promise<number>((resolve) => shutdown.onSignals(resolve));
    process.emit('SIGTERM');
    expect(await exited).toBe(0);
    expect(closed).toBe(true);
    // The SIGINT handler is still armed; leave the process as it was.
    for (const listener of process.listeners('SIGINT'))
      if (!before.includes(listener)) process.off('SIGINT', listener);
  });
});

import { Gauge, type Registry } from 'prom-client';
import type { EventBus } from '../bus';
import type { KeyValueStore } from '../cache';
import type { Logger } from '../logger';

/**
 * Set by the student service while anyone waits in its waiting room (docs/waiting-room.md): the number waiting,
 * with a 5-second expiry refreshed every second; 0 once the line has emptied while the students let in last still
 * make a replica warm (for at most two minutes). Absent: background work may run.
 */
export const STUDENTS_WAITING_KEY = 'waiting-room:busy';

/** Reads in a row that must find nobody waiting before paused consumers resume, so a short gap does not flap them. */
export const ABSENT_READS_TO_RESUME = 3;

export const DEFAULT_YIELD_CHECK_MS = 2_000;

export interface YieldingOptions {
  /** The service's queues marked `yieldsToStudents`. */
  queues: readonly string[];
  bus: Pick<EventBus, 'pause' | 'resume'>;
  kv: KeyValueStore;
  logger: Logger;
  registry?: Registry;
  /** How often the flag is read. */
  checkMs?: number;
}

function yieldingGauge(registry: Registry): Gauge<'queue'> {
  const name = 'bus_consumers_yielding';
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Gauge<'queue'>;
  return new Gauge({
    name,
    help: 'Background consumers paused while students wait in the waiting room (1), or consuming (0)',
    labelNames: ['queue'],
    registers: [registry],
  });
}

/**
 * Background consumers give way to students at the peak: while the waiting room's flag is set, the queues given are
 * paused (their messages stay queued, handlers already running finish); once it has been absent for
 * `ABSENT_READS_TO_RESUME` reads in a row they resume and catch up. A failed read counts as nobody waiting, so a
 * key-value store that is down never holds work back.
 */
export function startYielding(opts: YieldingOptions): { stop(): Promise<void> } {
  const { queues, bus, kv, registry } = opts;
  const logger = opts.logger.child({ component: 'yielding' });
  const checkMs = opts.checkMs ?? DEFAULT_YIELD_CHECK_MS;
  const gauge = registry ? yieldingGauge(registry) : undefined;
  for (const queue of queues) gauge?.set({ queue }, 0);
  let paused = false;
  let absentReads = 0;
  let readFailing = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let checking: Promise<void> = Promise.resolve();

  /** How many students wait (0: none, or the store could not tell). */
  async function waiting(): Promise<number> {
    try {
      const value = await kv.get(STUDENTS_WAITING_KEY);
      if (readFailing) logger.info('the waiting-room flag can be read again');
      readFailing = false;
      return value === null ? 0 : Math.max(1, Number(value) || 1);
    } catch (err) {
      if (!readFailing)
        logger.warn({ err }, 'cannot read the waiting-room flag; background work does not yield');
      readFailing = true;
      return 0;
    }
  }

  async function setPaused(pause: boolean): Promise<void> {
    paused = pause;
    await Promise.all(
      queues.map(async (queue) => {
        try {
          await (pause ? bus.pause?.(queue) : bus.resume?.(queue));
        } catch (err) {
          logger.warn({ err, queue }, pause ? 'cannot pause a consumer' : 'cannot resume a consumer');
        }
        gauge?.set({ queue }, pause ? 1 : 0);
      }),
    );
  }

  async function check(): Promise<void> {
    const students = await waiting();
    if (stopped) return;
    if (students > 0) {
      absentReads = 0;
      if (paused) return;
      await setPaused(true);
      logger.info({ queues, waiting: students }, 'students are waiting: background consumers paused');
      return;
    }
    absentReads += 1;
    if (!paused || absentReads < ABSENT_READS_TO_RESUME) return;
    await setPaused(false);
    logger.info({ queues }, 'nobody waits any more: background consumers resumed');
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      checking = check().finally(schedule);
    }, checkMs);
    timer.unref();
  };
  checking = check().finally(schedule);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await checking;
    },
  };
}

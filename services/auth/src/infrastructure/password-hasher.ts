import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PasswordHasher } from '../domain/credentials';

/**
 * bcryptjs is pure JavaScript: one hash at cost 10 keeps a thread busy for ~70 ms, at cost 12 for ~300 ms.
 * On the event loop a burst of logins would stall every other request of the service, so hashing runs
 * in a small pool of worker threads. The worker is inline code (not a file) so it runs the same way from
 * the TypeScript sources under jest and from `dist`; bcryptjs is resolved here and handed over by path.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptPath);
parentPort.on('message', (task) => {
  const run = task.op === 'hash' ? bcrypt.hash(task.password, task.cost) : bcrypt.compare(task.password, task.hash);
  run.then(
    (value) => parentPort.postMessage({ id: task.id, value }),
    (err) => parentPort.postMessage({ id: task.id, error: String(err && err.message || err) }),
  );
});
`;

type Task =
  | { id: number; op: 'hash'; password: string; cost: number }
  | { id: number; op: 'compare'; password: string; hash: string };

interface Pending {
  task: Task;
  resolve: (value: string | boolean) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  busy?: Pending;
}

const CLOSE_TIMEOUT_MS = 10_000;

export function createPasswordHasher(options: { cost: number; workers?: number }): PasswordHasher {
  const size = options.workers ?? Math.max(1, Math.min(4, availableParallelism()));
  const bcryptPath = require.resolve('bcryptjs');
  const slots: Slot[] = [];
  const queue: Pending[] = [];
  let nextId = 1;
  /** No new work is accepted (closing or closed). */
  let closed = false;
  /** The workers are being ended: nothing more is dispatched. */
  let terminated = false;
  const drained: Array<() => void> = [];

  const idle = () => queue.length === 0 && slots.every((s) => !s.busy);
  function notifyIfDrained(): void {
    if (idle()) for (const resolve of drained.splice(0)) resolve();
  }

  function spawn(): Slot {
    const slot: Slot = { worker: new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath } }) };
    // Idle workers must not keep a process alive that is otherwise done (tests, CLI scripts).
    slot.worker.unref();
    slot.worker.on('message', (msg: { id: number; value?: string | boolean; error?: string }) => {
      const done = slot.busy;
      slot.busy = undefined;
      slot.worker.unref();
      if (done && done.task.id === msg.id) {
        if (msg.error !== undefined) done.reject(new Error(msg.error));
        else done.resolve(msg.value as string | boolean);
      }
      dispatch();
      notifyIfDrained();
    });
    slot.worker.on('error', (err) => {
      const failed = slot.busy;
      slot.busy = undefined;
      failed?.reject(err);
      slots.splice(slots.indexOf(slot), 1);
      // Queued work still runs while closing: a replacement worker takes it.
      if (!terminated) dispatch();
      notifyIfDrained();
    });
    slots.push(slot);
    return slot;
  }

  function dispatch(): void {
    while (queue.length > 0 && !terminated) {
      let slot = slots.find((s) => !s.busy);
      if (!slot && slots.length < size) slot = spawn();
      if (!slot) return;
      const pending = queue.shift() as Pending;
      slot.busy = pending;
      // A busy worker holds the process open until its answer arrives.
      slot.worker.ref();
      slot.worker.postMessage(pending.task);
    }
  }

  type TaskInput =
    { op: 'hash'; password: string; cost: number } | { op: 'compare'; password: string; hash: string };

  function run<T extends string | boolean>(task: TaskInput): Promise<T> {
    if (closed) return Promise.reject(new Error('password hasher is closed'));
    return new Promise<T>((resolve, reject) => {
      queue.push({
        task: { ...task, id: nextId++ } as Task,
        resolve: resolve as (v: string | boolean) => void,
        reject,
      });
      dispatch();
    });
  }

  return {
    hash: (password) => run<string>({ op: 'hash', password, cost: options.cost }),
    compare: (password, hash) => run<boolean>({ op: 'compare', password, hash }),
    async close(closeOptions = {}) {
      closed = true;
      if (!idle()) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => drained.push(resolve)),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, closeOptions.timeoutMs ?? CLOSE_TIMEOUT_MS);
          }),
        ]);
        clearTimeout(timer);
      }
      terminated = true;
      const stopped = new Error('password hasher is closed');
      for (const pending of queue.splice(0)) pending.reject(stopped);
      for (const slot of slots) {
        slot.busy?.reject(stopped);
        slot.busy = undefined;
      }
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}

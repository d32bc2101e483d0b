import type { z } from 'zod';
import { startService, type RunningService, type SharedAdapters, type StartServiceOptions } from './run';
import type { ServiceModule } from './service';

/** Several services in one process sharing adapters (the all-in-one launcher). */
export interface ServiceHost {
  /** Starts one service on the shared adapters; its relay waits for `startRelays()`. */
  start<S extends z.ZodType, E, O>(
    module: ServiceModule<S, E, O>,
    opts?: Omit<StartServiceOptions<O>, 'shared' | 'deferRelay'>,
  ): Promise<RunningService<z.infer<S>, E>>;
  /** Adds to what the services started from now on share (auth's verifier, once auth runs). */
  share(more: Partial<SharedAdapters>): void;
  /** Starts every relay: call once every service is started, so every subscription is in place. */
  startRelays(): void;
  /**
   * Stops every service: HTTP first (all at once, each within its grace), then the shared bus (in-flight handlers finish, and
   * publishes still waiting for a handler stay pending in their outbox), then relays and adapters.
   */
  stop(): Promise<void>;
}

export function createServiceHost(shared: SharedAdapters): ServiceHost {
  const services: Array<RunningService<unknown, unknown>> = [];
  let stopping: Promise<void> | undefined;
  return {
    async start(module, opts = {}) {
      const service = await startService(module, { ...opts, shared, deferRelay: true });
      services.push(service as RunningService<unknown, unknown>);
      return service;
    },
    share(more) {
      Object.assign(shared, more);
    },
    startRelays() {
      for (const service of services) service.startRelay();
    },
    stop() {
      stopping ??= (async () => {
        const newestFirst = [...services].reverse();
        await Promise.all(newestFirst.map((service) => service.drain()));
        await shared.bus?.close();
        for (const service of newestFirst) await service.release();
      })();
      return stopping;
    },
  };
}

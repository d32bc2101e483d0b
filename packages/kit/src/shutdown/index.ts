import type { Logger } from '../logger';

type Step = { name: string; run: () => Promise<void> | void };

/**
 * Graceful shutdown: steps run in the reverse order of registration (last opened, first closed),
 * each bounded by a timeout so a stuck dependency cannot keep the process alive.
 */
export class Shutdown {
  private readonly steps: Step[] = [];
  private running: Promise<void> | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly stepTimeoutMs = 10_000,
  ) {}

  add(name: string, run: () => Promise<void> | void): void {
    this.steps.push({ name, run });
  }

  run(): Promise<void> {
    this.running ??= (async () => {
      for (const step of [...this.steps].reverse()) {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            Promise.resolve().then(step.run),
            new Promise((_, reject) => {
              timer = setTimeout(
                () => reject(new Error(`timed out after ${this.stepTimeoutMs} ms`)),
                this.stepTimeoutMs,
              );
              timer.unref();
            }),
          ]);
        } catch (err) {
          this.logger.warn({ err, step: step.name }, 'shutdown step failed');
        } finally {
          // A finished step must not leave its timer behind: a stuck-looking timer list hides real leaks.
          clearTimeout(timer);
        }
      }
    })();
    return this.running;
  }

  /** Runs the steps on SIGTERM or SIGINT, then exits. */
  onSignals(exit: (code: number) => void = (code) => process.exit(code)): void {
    const handler = (signal: string) => {
      this.logger.info({ signal }, 'shutting down');
      void this.run().then(() => exit(0));
    };
    process.once('SIGTERM', handler);
    process.once('SIGINT', handler);
  }
}

/** Process-level failures end in the same logger; an unexpected exception stops the process. */
export function handleProcessErrors(logger: Logger, shutdown?: Shutdown): void {
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled rejection');
  });
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception');
    void (shutdown?.run() ?? Promise.resolve()).finally(() => process.exit(1));
  });
}

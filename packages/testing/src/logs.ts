import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@readiness/kit/logger';

/** A logger whose lines (one JSON text each) are kept in `lines`, for a test that reads what was logged. */
export function capturingLogger(name: string, level = 'info'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger({ name, level, destination }), lines };
}

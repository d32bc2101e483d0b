import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { migrate } from './migrate';
import { openDatabase } from './index';

/**
 * A service's `.sql` migrations folder, given the folder of the module asking (`__dirname` of
 * `data-access/`). From the sources it is `migrations/` beside that module; from `dist` the build may have
 * copied it, and when it has not, the sources next to `dist` are used.
 */
export function migrationsFolder(dataAccessDir: string): string {
  const beside = path.join(dataAccessDir, 'migrations');
  if (existsSync(beside)) return beside;
  return path.resolve(dataAccessDir, '../../src/data-access/migrations');
}

/**
 * The body of each service's `migrate.js`: applies the migrations to `DATABASE_URL` and exits. The Helm
 * pre-install/pre-upgrade hook Job runs it before new pods start.
 */
export function runMigrationsCli(service: string, dirs: string[]): void {
  const main = async () => {
    const config = loadConfig(
      z.object({ DATABASE_URL: z.string().url(), LOG_LEVEL: z.string().default('info') }),
    );
    const logger = createLogger({ name: `${service}-migrate`, level: config.LOG_LEVEL });
    const database = await openDatabase({ url: config.DATABASE_URL, logger, name: `${service}-migrate` });
    try {
      const applied = await migrate(database, dirs, logger);
      logger.info({ applied }, 'migrations done');
    } finally {
      await database.close();
    }
  };
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { migrate } from './migrate';
import { openDatabase } from './index';

/**
 * The `.sql` folder a service declares (`migrations`, a path beside its compiled module, so under `src/` or `dist/`).
 * From `dist` the build may have copied it; when it has not (the images carry the sources' folder only), the same
 * folder under `src/` is used.
 */
export function migrationsFolder(declared: string): string {
  if (existsSync(declared)) return declared;
  const parts = declared.split(path.sep);
  const dist = parts.lastIndexOf('dist');
  if (dist < 0) return declared;
  return [...parts.slice(0, dist), 'src', ...parts.slice(dist + 1)].join(path.sep);
}

/**
 * Applies migrations to `DATABASE_URL` and exits: `node dist/main.js migrate` (`runMain`), which the Helm
 * pre-install/pre-upgrade hook Job runs before new pods start. Reads nothing else of the service's config.
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

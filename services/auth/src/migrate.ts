import { loadConfig } from '@readiness/kit/config';
import { migrate, openDatabase } from '@readiness/kit/db';
import { createLogger } from '@readiness/kit/logger';
import { kitMigrationsDir } from '@readiness/kit/outbox';
import { z } from 'zod';
import { migrationsDir } from './data-access/migrations-dir';

/** Applies the migrations and exits (the Helm pre-upgrade hook runs this before new pods start). */
async function main(): Promise<void> {
  const config = loadConfig(
    z.object({ DATABASE_URL: z.string().url(), LOG_LEVEL: z.string().default('info') }),
  );
  const logger = createLogger({ name: 'auth-migrate', level: config.LOG_LEVEL });
  const database = await openDatabase({ url: config.DATABASE_URL, logger, name: 'auth-migrate' });
  try {
    const applied = await migrate(database, [kitMigrationsDir, migrationsDir], logger);
    logger.info({ applied }, 'migrations done');
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '@readiness/dev-servers';
import { createTestDatabase } from '@readiness/testing';
import { createLogger } from '../../logger';
import { openDatabase, type Database } from '..';

export interface OpenedDatabase {
  database: Database;
  cleanup(): Promise<void>;
}

type Driver = [name: string, open: () => Promise<OpenedDatabase>];

const logger = createLogger({ name: 'db-test', level: 'silent' });

/**
 * The servers a database contract runs on, for `describe.each`: a fresh database on the local PostgreSQL,
 * plus the embedded PostgreSQL of `make start` in a fresh folder when `embedded` is asked for.
 */
export function databaseDrivers(options: { embedded?: boolean; poolMax?: number } = {}): Driver[] {
  const drivers: Driver[] = [
    [
      'PostgreSQL',
      async () => {
        const testDb = await createTestDatabase();
        const database = await openDatabase({
          url: testDb.url,
          logger,
          poolMax: options.poolMax,
          name: 'db-test',
        });
        return { database, cleanup: () => database.close().then(() => testDb.close()) };
      },
    ],
  ];
  if (options.embedded) {
    drivers.push([
      'embedded PostgreSQL',
      async () => {
        const dataDir = mkdtempSync(path.join(tmpdir(), 'embedded-pg-'));
        // As root the server runs as nobody, which must reach the folder (mkdtemp makes it 0700).
        chmodSync(dataDir, 0o755);
        const server = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), logger });
        const url = await server.ensureDatabase('db_test');
        const database = await openDatabase({ url, logger, poolMax: options.poolMax, name: 'db-test' });
        return {
          database,
          cleanup: async () => {
            await database.close();
            await server.stop();
            rmSync(dataDir, { recursive: true, force: true });
          },
        };
      },
    ]);
  }
  return drivers;
}

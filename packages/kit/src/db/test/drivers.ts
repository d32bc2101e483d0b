import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
 * The drivers a database contract runs on, for `describe.each`: a fresh PostgreSQL database and PGlite in
 * memory, plus PGlite in a folder when `folder` is asked for.
 */
export function databaseDrivers(options: { folder?: boolean; poolMax?: number } = {}): Driver[] {
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
    [
      'PGlite in memory',
      async () => {
        const database = await openDatabase({ logger });
        return { database, cleanup: () => database.close() };
      },
    ],
  ];
  if (options.folder) {
    drivers.push([
      'PGlite in a folder',
      async () => {
        const dataDir = mkdtempSync(path.join(tmpdir(), 'pglite-'));
        const database = await openDatabase({ logger, dataDir });
        return {
          database,
          cleanup: () => database.close().then(() => rmSync(dataDir, { recursive: true, force: true })),
        };
      },
    ]);
  }
  return drivers;
}

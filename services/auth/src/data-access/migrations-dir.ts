import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The service's `.sql` migrations. From the sources this is the folder beside this file; from `dist` the
 * build copies them (`npm run build:assets`), and when it has not, the sources next to `dist` are used.
 */
export const migrationsDir = (() => {
  const beside = path.join(__dirname, 'migrations');
  if (existsSync(beside)) return beside;
  return path.resolve(__dirname, '../../src/data-access/migrations');
})();

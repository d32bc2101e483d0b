import { runMigrationsCli } from '@readiness/kit/db';
import { kitMigrationsDir } from '@readiness/kit/outbox';
import { migrationsDir } from './data-access/migrations-dir';

runMigrationsCli('report', [kitMigrationsDir, migrationsDir]);

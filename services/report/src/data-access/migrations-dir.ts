import { migrationsFolder } from '@readiness/kit/db';

/** The service's `.sql` migrations, from the sources or from `dist`. */
export const migrationsDir = migrationsFolder(__dirname);

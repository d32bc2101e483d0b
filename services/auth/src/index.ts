export { authService, type AuthExports } from './service';
export { configSchema, type AuthConfig, type AuthConfigInput } from './config';
export { migrationsDir } from './data-access/migrations-dir';
export { openapi } from './entry-points/http/schemas';
export * as schemas from './entry-points/http/schemas';

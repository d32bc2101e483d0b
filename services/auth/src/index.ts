export { authService, type AuthExports } from './service';
export { configSchema, type AuthConfig, type AuthConfigInput } from './config';
export { migrationsDir } from './data-access/migrations-dir';
export { openApi } from './entry-points/http/openapi';
export * as schemas from './entry-points/http/schemas';

export { authService, type AuthExports } from './service';
export { configSchema, type AuthConfig, type AuthConfigInput } from './config';
export { authApi } from './entry-points/http/api';
export * as schemas from './entry-points/http/schemas';

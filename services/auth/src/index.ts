export { authService, type AuthExports, type AuthOptions } from './service';
export { type AuthConfig } from './config';

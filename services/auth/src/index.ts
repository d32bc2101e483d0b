export { authService, type AuthExports } from './service';
export { type AuthConfig } from './config';

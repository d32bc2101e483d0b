export { integrationsService, type IntegrationsOptions } from './service';
export { type IntegrationsConfig, type IntegrationsConfigInput } from './config';
export type { HostResolver } from './domain/webhooks/safe-target';

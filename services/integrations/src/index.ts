export { integrationsService } from './service';
export { type IntegrationsConfig, type IntegrationsConfigInput } from './config';

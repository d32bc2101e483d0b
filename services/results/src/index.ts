export { resultsService } from './service';
export { configSchema, type ResultsConfig, type ResultsConfigInput } from './config';
export { migrationsDir } from './data-access/migrations-dir';
export { openApi } from './entry-points/http/openapi';

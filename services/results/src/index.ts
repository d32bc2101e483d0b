export { resultsService } from './service';
export { configSchema, type ResultsConfig, type ResultsConfigInput } from './config';
export { migrationsDir } from './data-access/migrations-dir';
export { resultsApi } from './entry-points/http/api';

export { resultsService } from './service';
export { configSchema, type ResultsConfig, type ResultsConfigInput } from './config';
export { resultsApi } from './entry-points/http/api';

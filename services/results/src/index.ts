export { resultsService } from './service';
export { type ResultsConfig, type ResultsConfigInput } from './config';

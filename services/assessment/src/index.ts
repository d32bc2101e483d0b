export { assessmentService } from './service';
export { configSchema, type AssessmentConfig, type AssessmentConfigInput } from './config';
export { migrationsDir } from './data-access/migrations-dir';
export { assessmentApi } from './entry-points/http/api';

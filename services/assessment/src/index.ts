export { assessmentService } from './service';
export { configSchema, type AssessmentConfig, type AssessmentConfigInput } from './config';
export { assessmentApi } from './entry-points/http/api';
export { ADMIN_CREATED_QUEUE, ADMIN_UPDATED_QUEUE } from './entry-points/messaging/admin-names';

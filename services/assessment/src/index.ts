export { assessmentService } from './service';
export { type AssessmentConfig, type AssessmentConfigInput } from './config';

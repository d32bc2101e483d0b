export { studentService } from './service';
export { configSchema, type StudentConfig, type StudentConfigInput } from './config';
export { studentApi } from './entry-points/http/api';

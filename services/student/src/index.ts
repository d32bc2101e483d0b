export { studentService } from './service';
export { configSchema, type StudentConfig, type StudentConfigInput } from './config';
export { migrationsDir } from './data-access/migrations-dir';
export { studentApi } from './entry-points/http/api';

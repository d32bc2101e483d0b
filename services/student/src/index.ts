export { studentService } from './service';
export { configSchema, type StudentConfig, type StudentConfigInput } from './config';
export { migrationsDir } from './data-access/migrations-dir';
export { openApi } from './entry-points/http/openapi';

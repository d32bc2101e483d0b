export { studentService } from './service';
export { type StudentConfig, type StudentConfigInput } from './config';

import { runMain } from '@readiness/kit/runtime';
import { studentService } from './service';

runMain(studentService);

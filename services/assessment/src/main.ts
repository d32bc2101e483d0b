import { runMain } from '@readiness/kit/runtime';
import { assessmentService } from './service';

runMain(assessmentService);

import { runMain } from '@readiness/kit/runtime';
import { reportService } from './service';

runMain(reportService);

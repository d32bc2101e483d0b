import { runMain } from '@readiness/kit/runtime';
import { resultsService } from './service';

runMain(resultsService);

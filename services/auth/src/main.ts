import { runMain } from '@readiness/kit/runtime';
import { authService } from './service';

runMain(authService);

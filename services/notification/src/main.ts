import { runMain } from '@readiness/kit/runtime';
import { notificationService } from './service';

runMain(notificationService);

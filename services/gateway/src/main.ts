import { runMain } from '@readiness/kit/runtime';
import { gatewayService } from './service';

runMain(gatewayService);

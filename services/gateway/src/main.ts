import { runMain } from '@readiness/kit/runtime';
import { openApiFragments } from './openapi-fragments';
import { gatewayService } from './service';

runMain(gatewayService, { openApiFragments });

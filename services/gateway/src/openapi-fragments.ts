import { openapi as auth } from '@readiness/auth';
import type { OpenApiFragment } from './docs';

/**
 * Every service's API documentation, as the service generates it from the zod schemas it validates with.
 * A new service adds its export here.
 */
export const openApiFragments: readonly OpenApiFragment[] = [auth];

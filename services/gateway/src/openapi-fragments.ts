import type { OpenApiFragment } from './docs';

/** Every service's API documentation, as the service itself generates it from the schemas it validates with. */
export const openApiFragments: readonly OpenApiFragment[] = [];

import { createOpenApiHttp } from 'openapi-msw';
import type { paths } from '../lib/gen/api-schema';

/**
 * MSW's `http`, typed from the services' declarations (the generated `api-schema.ts`): a fake's path must be one
 * the services declare for that method, its path parameters, query and request body are the operation's, and what
 * it answers must be one of the operation's declared bodies. `http.untyped` is MSW's own, for what no operation
 * covers (a catch-all that records every request).
 */
export const http = createOpenApiHttp<paths>({ baseUrl: '*' });

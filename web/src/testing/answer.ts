import { HttpResponse } from 'msw';
import type { ApiAnswer, Method } from '../lib/api-types';
import type { paths } from '../lib/gen/api-schema';

/**
 * A fake's JSON answer to `method path`, typed as the operation declares it (the generated `api-schema.ts`):
 * a fake that leaves out a declared field, or adds one, fails to compile instead of passing a test the real
 * service would not.
 */
export const answer = <P extends keyof paths, M extends Method, S extends number = 200>(
  _path: P,
  _method: M,
  body: ApiAnswer<P, M, S>,
  init?: { status: S },
) => HttpResponse.json(body, init);

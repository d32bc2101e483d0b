import { HttpResponse } from 'msw';
import type { ApiAnswer, Method } from '../lib/api-types';
import type { components, paths } from '../lib/gen/api-schema';

/**
 * A fake's JSON answer to `method path`, typed as the operation declares it (the generated `api-schema.ts`):
 * a fake that leaves out a declared field, or adds one, fails to compile instead of passing a test the real
 * service would not. The response carries its body's type, so a handler made with the typed `http`
 * (`openapi-http.ts`) must answer with one of its own operation's bodies.
 */
export const answer = <P extends keyof paths, M extends Method, S extends number = 200>(
  _path: P,
  _method: M,
  body: ApiAnswer<P, M, S>,
  init?: { status: S },
) =>
  (HttpResponse.json as (body: unknown, init?: ResponseInit) => unknown)(body, init) as HttpResponse<
    ApiAnswer<P, M, S>
  >;

/** The services' error answer (`{ message, code, field? }`), as every operation declares its refusals. */
export type ErrorBody = components['schemas']['Error'];

/** A refusal with `status`, in the services' error shape. */
export const refusal = (status: number, body: ErrorBody) => HttpResponse.json<ErrorBody>(body, { status });

/**
 * A failure no operation declares: the services' OpenAPI documents declare no 5xx answer (a crashed service's or
 * the gateway's), so its body is outside the schema. A typed handler hands it through `response.untyped(…)`, which
 * keeps its method and path checked against the declared operations; only the body is unchecked.
 */
export const outage = (status: 500 | 502 | 503 = 500, body?: Partial<ErrorBody>) =>
  body ? HttpResponse.json(body, { status }) : new HttpResponse(null, { status });

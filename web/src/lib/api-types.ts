import type { paths } from './gen/api-schema';

/**
 * Names for the generated API types (`gen/api-schema.ts`, from the services' OpenAPI documents): what a call of
 * `METHOD path` takes and answers, so a feature's types follow the service's declaration instead of being
 * written a second time.
 */
export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
type Json<T> = T extends { content: { 'application/json': infer J } } ? J : never;

/** The JSON a call answers with `status` (200 by default). */
export type ApiAnswer<P extends keyof paths, M extends Method, S extends number = 200> = paths[P][M] extends {
  responses: infer R;
}
  ? S extends keyof R
    ? Json<R[S]>
    : never
  : never;

/** The JSON body a call takes. */
export type ApiBody<P extends keyof paths, M extends Method> = paths[P][M] extends {
  requestBody?: infer B;
}
  ? Json<NonNullable<B>>
  : never;

/** The query parameters a call takes, all of them optional unless the operation requires one. */
export type ApiQuery<P extends keyof paths, M extends Method> = paths[P][M] extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

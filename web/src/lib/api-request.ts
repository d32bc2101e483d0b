import type { FetchArgs } from '@reduxjs/toolkit/query';
import type { paths } from './gen/api-schema';
import type { Method } from './api-types';

/*
 * Every call the web makes names its operation by the generated schema's key (`gen/api-schema.ts`, from the services'
 * declarations) and its method: a path no service declares, a method it does not take, a missing path parameter or a
 * body of the wrong shape does not compile. The path parameters, the query and the JSON body are typed from the
 * operation; `{param}` is filled with encodeURIComponent.
 */

/** The operation `METHOD path` as the schema declares it (never when the path does not take that method). */
export type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/** The schema's paths that take `M`. */
export type PathWith<M extends Method> = {
  [P in keyof paths]: [Operation<P, M>] extends [never] ? never : P;
}[keyof paths];

type Parameters_<O> = O extends { parameters: infer X } ? X : never;

type PathOption<O> =
  Parameters_<O> extends { path: infer X }
    ? [X] extends [never]
      ? { path?: never }
      : { path: X }
    : { path?: never };

type QueryOption<O> =
  Parameters_<O> extends { query: infer Q }
    ? { query: Q }
    : Parameters_<O> extends { query?: infer Q }
      ? [NonNullable<Q>] extends [never]
        ? { query?: never }
        : { query?: NonNullable<Q> }
      : { query?: never };

type JsonOf<B> = B extends { content: { 'application/json': infer J } } ? J : never;

/** An operation that declares no body is sent none. */
type NoBody = { body?: never };

type BodyOption<O> = O extends { requestBody: infer B }
  ? [JsonOf<B>] extends [never]
    ? NoBody
    : { body: JsonOf<B> }
  : O extends { requestBody?: infer B }
    ? [JsonOf<NonNullable<B>>] extends [never]
      ? NoBody
      : { body?: JsonOf<NonNullable<B>> }
    : NoBody;

/**
 * What a call of `METHOD path` takes: its path parameters, query and JSON body, each required when the operation
 * requires it. `form` is a multipart body, for the operations that take one (the schema leaves their body
 * undeclared); `headers` are sent as they are.
 */
export type RequestOptions<P extends keyof paths, M extends Method> = PathOption<Operation<P, M>> &
  QueryOption<Operation<P, M>> &
  BodyOption<Operation<P, M>> & { form?: FormData; headers?: Record<string, string | undefined> };

type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];

/** The options argument (with a helper's own `Extra` settings), left out when nothing in it is required. */
export type OptionsArgument<P extends keyof paths, M extends Method, Extra = unknown> = [
  RequiredKeys<RequestOptions<P, M> & Extra>,
] extends [never]
  ? [options?: RequestOptions<P, M> & Extra]
  : [options: RequestOptions<P, M> & Extra];

/** The headers that have a value. */
export function definedHeaders(headers: Record<string, string | undefined> | undefined): [string, string][] {
  return Object.entries(headers ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined);
}

/** `/api/admin/results/{id}` with `{ id }`: each parameter filled in, encoded. */
export function fillPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`No value for {${name}} in ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** The path's query string (`?a=1&b=2`, empty without one), as the API slice's base query writes it. */
export function queryString(query: object | undefined): string {
  if (!query) return '';
  const defined = Object.entries(query).filter(([, value]) => value !== undefined) as [string, unknown][];
  return `?${new URLSearchParams(defined.map(([name, value]) => [name, String(value)])).toString()}`;
}

const API_PREFIX = '/api/';

/**
 * The call `METHOD path` for an RTK Query endpoint: the arguments its base query sends (a URL under `/api/`, as
 * `api.ts`'s base query takes it, the method, the query and the body).
 */
export function request<M extends Method, P extends PathWith<M>>(
  path: P,
  method: M,
  ...[options]: OptionsArgument<P, M>
): FetchArgs {
  const {
    path: params,
    query,
    body,
    form,
    headers,
  } = (options ?? {}) as {
    path?: Record<string, string | number>;
    query?: Record<string, unknown>;
    body?: unknown;
    form?: FormData;
    headers?: Record<string, string | undefined>;
  };
  const url = fillPath(path, params).slice(API_PREFIX.length);
  return {
    url,
    method: method.toUpperCase(),
    ...(query !== undefined ? { params: query } : {}),
    ...(form !== undefined ? { body: form } : body !== undefined ? { body } : {}),
    ...(headers !== undefined ? { headers } : {}),
  };
}

/** The absolute URL of `METHOD path` on the page's own origin (so it also serves under jsdom), with its query. */
export function apiUrl<M extends Method, P extends PathWith<M>>(
  path: P,
  _method: M,
  ...[options]: OptionsArgument<P, M>
): string {
  const { path: params, query } = (options ?? {}) as {
    path?: Record<string, string | number>;
    query?: Record<string, unknown>;
  };
  return new URL(`${fillPath(path, params)}${queryString(query)}`, window.location.origin).href;
}

/**
 * A link a server's answer carries (an uploaded answer's file, a question's file, a signed certificate link): not a
 * path the web writes, so it cannot be one of the schema's keys. It is asked of the origin the page came from, which
 * serves every path of the site (the link may name another of the site's names), and as the API slice's base query
 * takes it when it starts with `/api/`.
 */
export function serverLink(link: string): { url: string; request: FetchArgs } {
  const parsed = new URL(link, window.location.origin);
  const onThisOrigin = new URL(`${parsed.pathname}${parsed.search}`, window.location.origin).href;
  const path = `${parsed.pathname}${parsed.search}`;
  return {
    url: onThisOrigin,
    request: { url: path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path },
  };
}

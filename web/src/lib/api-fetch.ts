import type { paths } from './gen/api-schema';
import type { Method } from './api-types';
import {
  apiUrl,
  definedHeaders,
  serverLink,
  type OptionsArgument,
  type PathWith,
  type RequestOptions,
} from './api-request';

/*
 * The calls that cannot go through an RTK Query slice, each through one helper typed by the schema's paths (see
 * `api-request.ts`): sends that must outlive the page (`keepalive`), the student's page loads and downloads, uploads
 * that report their progress (only XMLHttpRequest does), and the event stream. Nothing else in the web calls
 * `fetch`, XMLHttpRequest or EventSource itself.
 */

/** What `typedFetch` adds to the request's own settings: everything but the method, the URL and the body. */
export type FetchInit = Omit<RequestInit, 'method' | 'body'>;

/**
 * `fetch` of `METHOD path` on the page's origin: a JSON body is sent as JSON (with its Content-Type), a `form` as
 * multipart; `init` carries the rest (headers, `keepalive`, a signal, the cache mode).
 */
export function typedFetch<M extends Method, P extends PathWith<M>>(
  path: P,
  method: M,
  ...[options]: OptionsArgument<P, M, { init?: FetchInit }>
): Promise<Response> {
  const { body, form, headers, init } = (options ?? {}) as {
    body?: unknown;
    form?: FormData;
    headers?: Record<string, string | undefined>;
    init?: FetchInit;
  };
  const url = (apiUrl as (p: string, m: string, o?: unknown) => string)(path, method, options);
  const sent = new Headers(init?.headers);
  for (const [name, value] of definedHeaders(headers)) sent.set(name, value);
  if (body !== undefined && !sent.has('Content-Type')) sent.set('Content-Type', 'application/json');
  return fetch(url, {
    ...init,
    method: method.toUpperCase(),
    headers: sent,
    ...(form !== undefined ? { body: form } : body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

/** `fetch` of a link a server's answer carried (a file, a signed certificate), on the page's own origin. */
export function fetchServerLink(link: string, init?: FetchInit): Promise<Response> {
  return fetch(serverLink(link).url, init);
}

/** What an upload's server answered: its status and its body as text. */
export interface UploadOutcome {
  status: number;
  text: string;
}

type UploadOptions<P extends keyof paths, M extends Method> = RequestOptions<P, M> & {
  form: FormData;
  onProgress: (percent: number) => void;
};

/**
 * A multipart upload of `METHOD path` that reports how much of it has gone (0–100), through XMLHttpRequest because
 * only XHR reports upload progress. Resolves with whatever the server answered; rejects when nothing arrived.
 */
export function uploadWithProgress<M extends Method, P extends PathWith<M>>(
  path: P,
  method: M,
  options: UploadOptions<P, M>,
): Promise<UploadOutcome> {
  const url = (apiUrl as (p: string, m: string, o?: unknown) => string)(path, method, options);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method.toUpperCase(), url);
    for (const [name, value] of definedHeaders(options.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new Error('The upload did not reach the server'));
    xhr.send(options.form);
  });
}

/**
 * The server-sent event stream of `GET path`, opened with the browser's own EventSource; undefined where the
 * browser has none. `CLOSED` is the state of a stream the browser gave up on.
 */
export function openEventStream<P extends PathWith<'get'>>(
  path: P,
  ...[options]: OptionsArgument<P, 'get'>
): EventSource | undefined {
  const Source = typeof window === 'undefined' ? undefined : window.EventSource;
  if (typeof Source !== 'function') return undefined;
  return new Source((apiUrl as (p: string, m: string, o?: unknown) => string)(path, 'get', options));
}

/** Whether the browser has given up on a stream (an answer that was not a stream): it then needs opening again. */
export const streamGaveUp = (source: EventSource | undefined): boolean => source?.readyState === 2;

/** Whether this browser can follow an event stream at all. */
export const canFollowEvents = (): boolean =>
  typeof window !== 'undefined' && typeof window.EventSource === 'function';

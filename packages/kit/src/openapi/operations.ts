import type { Express, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { parse } from '../http';
import {
  describeService,
  HTTP_METHODS,
  type HttpMethod,
  type OpenApiDocument,
  type OperationSpec,
} from './index';

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

/** What a handler is given: the path parameters, query and JSON body, each parsed with its declared schema. */
export interface OperationInput<P, Q, B> {
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
  req: Request;
  res: Response;
}

/**
 * One HTTP operation, declared once: its description, access, request schemas and answers (the OpenAPI document
 * is built from them) and its handler (the Express route is mounted from it). The handler returns the JSON it
 * answers with, sent with the operation's first declared 2xx status; or nothing, when it answered itself (a
 * stream, a file, a status of its own).
 */
export interface DeclaredOperation<
  P extends z.ZodObject | undefined,
  Q extends z.ZodObject | undefined,
  B extends z.ZodType | undefined,
  D,
> extends OperationSpec {
  params?: P;
  query?: Q;
  body?: B;
  /**
   * The answer to path parameters that fail their schema, when it is not the 400 every other refusal gets: a
   * code that cannot be one is answered like an unknown one (404), so the two cannot be told apart.
   */
  invalidParams?: () => Error;
  /** The body `body` documents is read by the handler itself (a multipart body whose fields carry JSON text). */
  readsOwnBody?: boolean;
  /**
   * Handlers that run before anything is parsed: a check (a service that checks its own sessions), a multipart
   * reader. Made once from the service's dependencies when the routes are mounted.
   */
  before?: (deps: D) => RequestHandler[];
  /** `deps`: what the service's setup made (its use cases), given when the routes are mounted. */
  handle(input: OperationInput<P, Q, B>, deps: D): unknown;
}

/**
 * The declaring function of a service whose handlers use `D` (its use cases): it types each handler from the
 * operation's schemas, and is the identity at run time.
 */
export const operationsFor =
  <D>() =>
  <
    P extends z.ZodObject | undefined = undefined,
    Q extends z.ZodObject | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
  >(
    declared: DeclaredOperation<P, Q, B, D>,
  ): DeclaredOperation<P, Q, B, D> =>
    declared;

export interface ServiceApi<D> {
  /** The service's OpenAPI 3.1 document (served at `/openapi.json`, merged by the gateway and the web's types). */
  openapi: OpenApiDocument;
  /** Mounts every operation, in the order declared (a literal path before a parameter at the same place). */
  routes(deps: D): (app: Express) => void;
}

const splitKey = (key: string): { method: HttpMethod; path: string } => {
  const match = /^([A-Z]+) (\/\S*)$/.exec(key);
  const method = match?.[1]?.toLowerCase() as HttpMethod | undefined;
  if (!match || !method || !HTTP_METHODS.includes(method)) {
    throw new Error(`operation key "${key}" is not "METHOD /path"`);
  }
  return { method, path: match[2] as string };
};

const successStatus = (op: OperationSpec) =>
  Number(Object.keys(op.responses).find((status) => /^2\d\d$/.test(status)) ?? 200);

/**
 * Under test (jest sets NODE_ENV=test), every answer a handler returns is checked against the schema its
 * operation declares: an answer that drifted from its declaration (and so from the web's generated types) fails
 * the test that made it, as a 500 naming the field.
 */
const CHECK_ANSWERS = process.env.NODE_ENV === 'test';

function checkAnswer(key: string, op: OperationSpec, status: number, answer: unknown): void {
  const declared = op.responses[status];
  const schema = typeof declared === 'object' ? declared.body : undefined;
  if (!schema) return;
  const checked = schema.safeParse(answer);
  if (checked.success) return;
  const issue = checked.error.issues[0];
  throw new Error(
    `${key} answered ${status} with a body its declaration refuses at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
  );
}

/**
 * A service's API from its operations, each declared once (`'METHOD /path/{param}': operation({ … })`): the
 * document and the routes come from the same declarations, so they cannot disagree.
 */
export function serviceApi<D>(spec: {
  service: string;
  version?: string;
  tags?: { name: string; description?: string }[];
  // Each operation's own schemas type its handler; the record holds them all.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any of the operations' schema types
  operations: Record<string, DeclaredOperation<any, any, any, D>>;
}): ServiceApi<D> {
  return {
    openapi: describeService(spec),
    routes: (deps) => (app) => {
      for (const [key, op] of Object.entries(spec.operations)) {
        const { method, path } = splitKey(key);
        const status = successStatus(op);
        const before = op.before?.(deps) ?? [];
        app[method](path.replace(/\{(\w+)\}/g, ':$1'), ...before, async (req: Request, res: Response) => {
          if (op.invalidParams && op.params && !op.params.safeParse(req.params).success)
            throw op.invalidParams();
          const answer = await op.handle(
            {
              params: op.params ? parse(op.params, req.params) : undefined,
              query: op.query ? parse(op.query, req.query) : undefined,
              body: op.body && !op.readsOwnBody ? parse(op.body, req.body) : undefined,
              req,
              res,
            },
            deps,
          );
          if (answer === undefined || res.headersSent) return;
          if (CHECK_ANSWERS) checkAnswer(key, op, status, answer);
          res.status(status).json(answer);
        });
      }
    },
  };
}

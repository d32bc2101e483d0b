import type { Express, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { parse } from '../http';
import {
  describeService,
  HTTP_METHODS,
  type HttpMethod,
  type OpenApiDocument,
  type OperationSpec,
  type ResponseSpec,
} from './index';

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

type Responses = Record<number, ResponseSpec>;

/** The success (2xx) statuses an operation declares. */
export type SuccessStatus<R extends Responses> = {
  [K in keyof R]: K extends number ? (`${K}` extends `2${string}` ? K : never) : never;
}[keyof R];

/** The body a declared answer takes: what its schema accepts, or nothing when it declares none (a 204). */
type AnswerBody<A> = A extends { body: infer S extends z.ZodType } ? z.input<S> : undefined;

const ANSWER = Symbol('declared answer');

/** A handler's answer with a status of its own: one of the success statuses its operation declares. */
export interface Answer<S extends number = number> {
  readonly [ANSWER]: true;
  readonly status: S;
  readonly body: unknown;
}

const isAnswer = (value: unknown): value is Answer =>
  typeof value === 'object' && value !== null && ANSWER in value;

/**
 * Answers with `status`, one of the operation's declared success statuses, and `body`, checked against that
 * status's schema under test; for an operation that declares more than one (200 or 201, 200 or 202).
 */
export type AnswerWith<R extends Responses> = <S extends SuccessStatus<R>>(
  status: S,
  ...body: AnswerBody<R[S]> extends undefined ? [] : [AnswerBody<R[S]>]
) => Answer<S>;

const answerWith = ((status: number, body?: unknown): Answer => ({
  [ANSWER]: true,
  status,
  body,
})) as AnswerWith<Responses>;

/** What a handler is given: the path parameters, query and JSON body, each parsed with its declared schema. */
export interface OperationInput<P, Q, B, R extends Responses = Responses> {
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
  req: Request;
  res: Response;
  /** `return answer(201, body)`: an answer with another of the declared success statuses than the first. */
  answer: AnswerWith<R>;
}

/**
 * One HTTP operation, declared once: its description, access, request schemas and answers (the OpenAPI document
 * is built from them) and its handler (the Express route is mounted from it). What the handler returns is its
 * answer, every one checked against its declared schema under test:
 * - the JSON it answers with, sent with the operation's first declared 2xx status;
 * - `answer(status, body)` (given in its input), when the operation declares more than one success status: sent
 *   with that status, which must be one the operation declares (another one fails the call, a 500);
 * - nothing, when it answered itself (a stream, a file).
 */
export interface DeclaredOperation<
  P extends z.ZodObject | undefined,
  Q extends z.ZodObject | undefined,
  B extends z.ZodType | undefined,
  D,
  R extends Responses = Responses,
> extends OperationSpec {
  params?: P;
  query?: Q;
  body?: B;
  responses: R;
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
  handle(input: OperationInput<P, Q, B, R>, deps: D): unknown;
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
    R extends Responses = Responses,
  >(
    declared: DeclaredOperation<P, Q, B, D, R>,
  ): DeclaredOperation<P, Q, B, D, R> =>
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

const isSuccess = (status: string | number) => /^2\d\d$/.test(String(status));

const successStatus = (op: OperationSpec) => Number(Object.keys(op.responses).find(isSuccess) ?? 200);

/** The status an `answer(status, body)` is sent with: one of the operation's success statuses, or a failure. */
function declaredStatus(key: string, op: OperationSpec, status: number): number {
  if (isSuccess(status) && op.responses[status] !== undefined) return status;
  throw new Error(`${key} answered ${status}, a success status its declaration does not list`);
}

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
  operations: Record<string, DeclaredOperation<any, any, any, D, any>>;
}): ServiceApi<D> {
  return {
    openapi: describeService(spec),
    routes: (deps) => (app) => {
      for (const [key, op] of Object.entries(spec.operations)) {
        const { method, path } = splitKey(key);
        const firstStatus = successStatus(op);
        const before = op.before?.(deps) ?? [];
        app[method](path.replace(/\{(\w+)\}/g, ':$1'), ...before, async (req: Request, res: Response) => {
          if (op.invalidParams && op.params && !op.params.safeParse(req.params).success)
            throw op.invalidParams();
          const returned = await op.handle(
            {
              params: op.params ? parse(op.params, req.params) : undefined,
              query: op.query ? parse(op.query, req.query) : undefined,
              body: op.body && !op.readsOwnBody ? parse(op.body, req.body) : undefined,
              req,
              res,
              answer: answerWith,
            },
            deps,
          );
          if (returned === undefined || res.headersSent) return;
          const [status, body] = isAnswer(returned)
            ? [declaredStatus(key, op, returned.status), returned.body]
            : [firstStatus, returned];
          if (CHECK_ANSWERS) checkAnswer(key, op, status, body);
          if (body === undefined) res.status(status).end();
          else res.status(status).json(body);
        });
      }
    },
  };
}

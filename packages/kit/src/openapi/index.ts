import type { Express } from 'express';
import { z } from 'zod';

/**
 * API documentation: each service describes its own routes from the zod schemas it validates with and serves
 * the document at `OPENAPI_PATH`; the gateway fetches and merges the documents of the services it routes to.
 */

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItem = Partial<Record<HttpMethod, Operation>> & Record<string, unknown>;

export interface Operation {
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, PathItem>;
  components: Record<string, Record<string, unknown>>;
  tags: { name: string; description?: string }[];
}

/** Where every service serves its own document (on its own port, not routed by the gateway). */
export const OPENAPI_PATH = '/openapi.json';

/** The one security scheme of the product: an admin's JWT from `POST /api/auth/login`, in the Authorization header. */
const ADMIN_SECURITY_SCHEME = 'bearerAuth';
export const adminSecurity = (): Record<string, string[]>[] => [{ [ADMIN_SECURITY_SCHEME]: [] }];

/** The components every document carries: the error shape and the admin bearer scheme. */
const sharedComponents = (): OpenApiDocument['components'] => ({
  schemas: {
    Error: {
      type: 'object',
      required: ['message', 'code'],
      properties: {
        message: { type: 'string' },
        code: { type: 'string' },
        field: {
          type: 'string',
          description: 'With validation_failed: the request field the message is about',
        },
      },
    },
  },
  securitySchemes: {
    [ADMIN_SECURITY_SCHEME]: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'Admin token from POST /api/auth/login',
    },
  },
});

/** An answer of an operation: a bare string is an error answer (`{ message, code }`) with that description. */
export type ResponseSpec = string | { description: string; body?: z.ZodType };

export interface OperationSpec {
  summary: string;
  tags?: string[];
  /** Needs an admin token; answers 401 without one (`NOT_SIGNED_IN`, unless `responses` says otherwise). */
  admin?: boolean;
  /** Path parameters, named as in the path template (`{id}`). */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** The JSON request body, as the route parses it. */
  body?: z.ZodType;
  responses: Record<number, ResponseSpec>;
}

export interface ServiceApiSpec {
  /** The service's name; it titles the document. */
  service: string;
  version?: string;
  tags?: { name: string; description?: string }[];
  /** Keyed by `METHOD /path/{param}`, e.g. `PUT /api/admin/admins/{id}`. */
  operations: Record<string, OperationSpec>;
}

/** JSON Schema (2020-12, which OpenAPI 3.1 uses) of what a route accepts (`input`) or answers (`output`). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

const jsonContent = (schema: z.ZodType, io: 'input' | 'output') => ({
  'application/json': { schema: jsonSchema(schema, io) },
});

function parameters(where: 'path' | 'query', shape: z.ZodObject | undefined): unknown[] {
  return Object.entries(shape?.shape ?? {}).map(([name, field]) => ({
    name,
    in: where,
    required: where === 'path' || !(field as z.ZodType).safeParse(undefined).success,
    schema: jsonSchema(field as z.ZodType, 'input'),
  }));
}

function response(spec: ResponseSpec): unknown {
  if (typeof spec === 'string') {
    return {
      description: spec,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return spec.body
    ? { description: spec.description, content: jsonContent(spec.body, 'output') }
    : { description: spec.description };
}

/** What an admin operation answers to a call without a valid admin token, unless it declares its own 401. */
export const NOT_SIGNED_IN = 'Not signed in';

function operation(spec: OperationSpec): Operation {
  const params = [...parameters('path', spec.params), ...parameters('query', spec.query)];
  const responses: OperationSpec['responses'] =
    spec.admin && spec.responses[401] === undefined
      ? { ...spec.responses, 401: NOT_SIGNED_IN }
      : spec.responses;
  return {
    summary: spec.summary,
    ...(spec.tags ? { tags: spec.tags } : {}),
    ...(spec.admin ? { security: adminSecurity() } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(spec.body ? { requestBody: { required: true, content: jsonContent(spec.body, 'input') } } : {}),
    responses: Object.fromEntries(
      Object.entries(responses).map(([status, answer]) => [status, response(answer)]),
    ),
  };
}

/** A service's OpenAPI 3.1 document, built from the schemas its routes validate with. */
export function describeService(spec: ServiceApiSpec): OpenApiDocument {
  const paths: Record<string, PathItem> = {};
  for (const [key, op] of Object.entries(spec.operations)) {
    const match = /^([A-Z]+) (\/\S*)$/.exec(key);
    const method = match?.[1]?.toLowerCase() as HttpMethod | undefined;
    if (!match || !method || !HTTP_METHODS.includes(method)) {
      throw new Error(`operation key "${key}" is not "METHOD /path"`);
    }
    const item = (paths[match[2] as string] ??= {});
    item[method] = operation(op);
  }
  return {
    openapi: '3.1.0',
    info: { title: `Readiness ${spec.service} API`, version: spec.version ?? '1.0.0' },
    paths,
    components: sharedComponents(),
    tags: spec.tags ?? [],
  };
}

/** Serves the service's document at `OPENAPI_PATH`, for the gateway to merge. */
export function serveOpenApi(app: Express, doc: OpenApiDocument): void {
  app.get(OPENAPI_PATH, (_req, res) => {
    res.json(doc);
  });
}

/**
 * Merges documents into `base` (not modified). Paths and components are unions; when two documents define one
 * entry differently the first one stays and `onConflict` names the entry, so one service's mistake cannot take
 * the others' documentation down.
 */
export function mergeOpenApi(
  base: OpenApiDocument,
  docs: readonly Pick<OpenApiDocument, 'paths' | 'components' | 'tags'>[],
  onConflict: (where: string) => void = () => undefined,
): OpenApiDocument {
  const merged = structuredClone(base);
  const mergeInto = (target: Record<string, unknown>, source: Record<string, unknown>, where: string) => {
    for (const [key, value] of Object.entries(source)) {
      if (!(key in target)) target[key] = value;
      else if (JSON.stringify(target[key]) !== JSON.stringify(value)) onConflict(`${where}.${key}`);
    }
  };
  for (const doc of docs) {
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      mergeInto((merged.paths[path] ??= {}), item, `paths["${path}"]`);
    }
    for (const [section, entries] of Object.entries(doc.components ?? {})) {
      mergeInto((merged.components[section] ??= {}), entries, `components.${section}`);
    }
    for (const tag of doc.tags ?? []) {
      if (!merged.tags.some((t) => t.name === tag.name)) merged.tags.push(tag);
    }
  }
  return merged;
}

/** The product-level document the gateway starts from: the shared components and no paths. */
export function productDocument(info: OpenApiDocument['info']): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/' }],
    paths: {},
    components: sharedComponents(),
    tags: [],
  };
}

/** `$ref`s that point nowhere inside the document (a merged document must have none). */
export function danglingRefs(doc: OpenApiDocument): string[] {
  const missing = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          const [, section, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(value) ?? [];
          if (!section || !name || !doc.components[section]?.[name]) missing.add(value);
        } else visit(value);
      }
    }
  };
  visit(doc.paths);
  return [...missing];
}

export { listPage, pagination, paginationSchema, type Pagination } from './pages';
export {
  operationsFor,
  serviceApi,
  type Answer,
  type AnswerWith,
  type DeclaredOperation,
  type OperationInput,
  type SuccessStatus,
  type ServiceApi,
} from './operations';

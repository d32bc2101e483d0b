import express, { type Express } from 'express';
import swaggerUi from 'swagger-ui-express';
import { matchRoute, requiresAdmin } from './routes';

/** What each service contributes to the API documentation (the `paths` and `components` of an OpenAPI 3.1 document). */
export interface OpenApiFragment {
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  tags?: { name: string; description?: string }[];
}

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  tags: { name: string; description?: string }[];
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** What the gateway itself adds to every operation: its own answers and the admin bearer scheme. */
const gatewayFragment: OpenApiFragment = {
  components: {
    schemas: {
      Error: {
        type: 'object',
        required: ['message', 'code'],
        properties: { message: { type: 'string' }, code: { type: 'string' } },
      },
    },
    securitySchemes: {
      adminBearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Admin token from POST /api/auth/login',
      },
    },
    responses: {
      Unauthorized: errorResponse('Missing, invalid or expired admin token'),
      PayloadTooLarge: errorResponse('Request body over the limit (1 MB JSON, 25 MB uploads)'),
      TooManyRequests: {
        ...errorResponse('Rate limit exceeded; retry after the number of seconds in Retry-After'),
        headers: { 'Retry-After': { schema: { type: 'integer' } } },
      },
      BadGateway: errorResponse('The owning service could not be reached'),
      ServiceUnavailable: errorResponse('The owning service is not deployed or not ready'),
      GatewayTimeout: errorResponse('The owning service did not answer in time'),
    },
  },
};

function mergeSection(target: Record<string, unknown>, source: Record<string, unknown>, where: string): void {
  for (const [key, value] of Object.entries(source)) {
    if (key in target && JSON.stringify(target[key]) !== JSON.stringify(value)) {
      throw new Error(`OpenAPI fragments disagree on ${where}.${key}`);
    }
    target[key] = value;
  }
}

/** Turns `/api/admin/results/{id}/pdf` into a concrete path the route table can match. */
const concretePath = (template: string) => template.replace(/\{[^}]+\}/g, 'x');

/**
 * Merges the services' fragments into one document and decorates every operation with what the
 * gateway enforces on that path (admin bearer, rate limits, body caps, upstream failures), taken from
 * the same route table that routes the requests, so the documentation cannot drift from the routing.
 */
export function buildOpenApiDocument(
  fragments: readonly OpenApiFragment[],
  version: string,
): OpenApiDocument {
  const doc: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'Readiness API',
      version,
      description:
        'Distance-education readiness assessment: admin portal and student flow. Every error answers `{ message, code }`.',
    },
    servers: [{ url: '/' }],
    paths: {},
    components: {},
    tags: [],
  };
  for (const fragment of [gatewayFragment, ...fragments]) {
    for (const [path, item] of Object.entries(fragment.paths ?? {})) {
      doc.paths[path] ??= {};
      mergeSection(doc.paths[path], item, `paths["${path}"]`);
    }
    for (const [section, entries] of Object.entries(fragment.components ?? {})) {
      doc.components[section] ??= {};
      mergeSection(doc.components[section], entries, `components.${section}`);
    }
    for (const tag of fragment.tags ?? []) {
      if (!doc.tags.some((t) => t.name === tag.name)) doc.tags.push(tag);
    }
  }
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as
        { security?: unknown; responses?: Record<string, unknown> } | undefined;
      if (!operation) continue;
      const rule = matchRoute(method.toUpperCase(), concretePath(path));
      const responses = (operation.responses ??= {});
      if (requiresAdmin(path, rule)) {
        operation.security ??= [{ bearerAuth: [] }];
        responses['401'] ??= { $ref: '#/components/responses/Unauthorized' };
      }
      if (['post', 'put', 'patch'].includes(method))
        responses['413'] ??= { $ref: '#/components/responses/PayloadTooLarge' };
      responses['429'] ??= { $ref: '#/components/responses/TooManyRequests' };
      responses['502'] ??= { $ref: '#/components/responses/BadGateway' };
      responses['503'] ??= { $ref: '#/components/responses/ServiceUnavailable' };
      responses['504'] ??= { $ref: '#/components/responses/GatewayTimeout' };
    }
  }
  return doc;
}

/** `/api/docs/openapi.json` and the Swagger UI page at `/api/docs/` (its assets come from swagger-ui-dist, no CDN). */
export function mountDocs(app: Express, doc: OpenApiDocument): void {
  app.get('/api/docs/openapi.json', (_req, res) => {
    res.json(doc);
  });
  // The page loads its assets relatively, so it must be addressed with the trailing slash.
  app.get('/api/docs', (req, res, next) => {
    if (req.originalUrl.split('?')[0] === '/api/docs') res.redirect(301, '/api/docs/');
    else next();
  });
  const docs = express.Router();
  docs.use(swaggerUi.serveFiles(doc as unknown as swaggerUi.JsonObject));
  docs.get(
    '/',
    swaggerUi.setup(doc as unknown as swaggerUi.JsonObject, { customSiteTitle: 'Readiness API' }),
  );
  app.use('/api/docs', docs);
}

import express, { type Express, type RequestHandler } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { Logger } from '@readiness/kit/logger';
import {
  adminSecurity,
  HTTP_METHODS,
  mergeOpenApi,
  OPENAPI_PATH,
  productDocument,
  type OpenApiDocument,
} from '@readiness/kit/openapi';
import { matchRoute, requiresAdmin, type RouteRule, type UpstreamName } from './routes';

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** The gateway's own answers, which it adds to the operations it routes. */
const gatewayResponses = {
  Unauthorized: errorResponse('Missing, invalid or expired admin token'),
  PayloadTooLarge: errorResponse('Request body over the limit (1 MB JSON, 25 MB uploads)'),
  TooManyRequests: {
    ...errorResponse('Rate limit exceeded; retry after the number of seconds in Retry-After'),
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
  },
  BadGateway: errorResponse('The owning service could not be reached'),
  ServiceUnavailable: errorResponse('The owning service is not deployed or not ready'),
  GatewayTimeout: errorResponse('The owning service did not answer in time'),
};

/** Turns `/api/admin/results/{id}/pdf` into a concrete path the route table can match. */
const concretePath = (template: string) => template.replace(/\{[^}]+\}/g, 'x');

/**
 * One service's document, reduced to the operations the gateway actually forwards to that service, so the
 * documentation shows what a client can reach and one service cannot describe another's paths.
 */
function routedBy(
  doc: OpenApiDocument,
  upstream: UpstreamName,
  routes: readonly RouteRule[],
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      if (matchRoute(method.toUpperCase(), concretePath(path), routes)?.upstream !== upstream) continue;
      (paths[path] ??= {})[method] = operation;
    }
  }
  return { ...doc, paths };
}

/**
 * Marks every operation with what the gateway enforces on its path (admin bearer, rate limits, body caps,
 * upstream failures), from the same route table that routes the requests, so the documentation cannot drift
 * from the routing.
 */
function decorate(doc: OpenApiDocument, routes: readonly RouteRule[]): OpenApiDocument {
  doc.components.responses = { ...gatewayResponses, ...doc.components.responses };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const rule = matchRoute(method.toUpperCase(), concretePath(path), routes);
      const responses = (operation.responses ??= {});
      if (requiresAdmin(path, rule)) {
        operation.security ??= adminSecurity();
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

function isDocument(value: unknown): value is OpenApiDocument {
  const doc = value as Partial<OpenApiDocument> | null;
  return typeof doc === 'object' && doc !== null && typeof doc.paths === 'object' && doc.paths !== null;
}

export interface ApiDocsOptions {
  /** The configured upstreams; each serves its own document at /openapi.json. */
  upstreams: Partial<Record<UpstreamName, URL>>;
  routes: readonly RouteRule[];
  logger: Logger;
  version: string;
  /** How long a merged document with every upstream in it is reused. */
  freshMs?: number;
  /** How long a document that misses an upstream is reused before that upstream is asked again. */
  retryMs?: number;
  /** Per upstream; a slower one is left out of this round. */
  timeoutMs?: number;
}

export interface ApiDocs {
  /** The merged document: every upstream that answered, the others simply missing until they do. */
  document(): Promise<OpenApiDocument>;
}

/**
 * The product's API documentation, merged at run time from the documents the services serve, so the gateway
 * depends on no service's code: a service that is down is missing from it until it answers again.
 */
export function createApiDocs(options: ApiDocsOptions): ApiDocs {
  const { upstreams, routes, logger } = options;
  const freshMs = options.freshMs ?? 30_000;
  const retryMs = options.retryMs ?? 3_000;
  const timeoutMs = options.timeoutMs ?? 2_000;
  let cached: { doc: OpenApiDocument; until: number } | undefined;
  let pending: Promise<OpenApiDocument> | undefined;

  const fetchOne = async (name: UpstreamName, base: URL): Promise<OpenApiDocument | undefined> => {
    try {
      const res = await fetch(new URL(OPENAPI_PATH, base), { signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`answered ${res.status}`);
      }
      const body: unknown = await res.json();
      if (!isDocument(body)) throw new Error('answered something that is not an OpenAPI document');
      return routedBy(body, name, routes);
    } catch (err) {
      logger.debug({ err, upstream: name }, 'API documentation of an upstream is not available');
      return undefined;
    }
  };

  const refresh = async (): Promise<OpenApiDocument> => {
    const entries = Object.entries(upstreams) as [UpstreamName, URL][];
    const docs = await Promise.all(entries.map(([name, url]) => fetchOne(name, url)));
    const answered = docs.filter((d): d is OpenApiDocument => d !== undefined);
    const merged = mergeOpenApi(
      productDocument({
        title: 'Readiness API',
        version: options.version,
        description:
          'Distance-education readiness assessment: admin portal and student flow. Every error answers `{ message, code }`.',
      }),
      answered,
      (where) => logger.warn({ where }, 'two services document one API entry differently; the first is kept'),
    );
    const doc = decorate(merged, routes);
    cached = { doc, until: Date.now() + (answered.length === entries.length ? freshMs : retryMs) };
    return doc;
  };

  return {
    document() {
      if (cached && Date.now() < cached.until) return Promise.resolve(cached.doc);
      pending ??= refresh().finally(() => {
        pending = undefined;
      });
      return pending;
    },
  };
}

/**
 * What the docs page does when the document is for signed-in admins only: it sends the admin token the portal keeps
 * in this browser (the same origin) with each request, the document's included, and says what to do without one.
 * It runs in the browser: swagger-ui-express writes it into the page's init script as it is written here.
 */
const SIGNED_IN_OPTIONS = {
  // Each function must stand alone: it is copied into the page as text, without this module around it.
  requestInterceptor: function (request: { headers: Record<string, string> }) {
    const page = globalThis as unknown as DocsPage;
    let token: string | null = null;
    try {
      token = page.localStorage.getItem('admin_token');
    } catch {
      // Storage can be unavailable (private mode): the request goes without a token.
    }
    if (token) request.headers.Authorization = 'Bearer ' + token;
    return request;
  },
  responseInterceptor: function (response: { status: number; url: string }) {
    const { document } = globalThis as unknown as DocsPage;
    if (
      response.status === 401 &&
      /openapi\.json$/.test(response.url) &&
      !document.getElementById('sign-in-note')
    ) {
      const note = document.createElement('p');
      note.id = 'sign-in-note';
      note.setAttribute('role', 'alert');
      note.style.cssText =
        'margin:16px;padding:12px 16px;border:1px solid #f59e0b;background:#fffbeb;font:16px sans-serif';
      note.append('The API documentation is for signed-in admins. ');
      const link = document.createElement('a');
      link.href = '/admin/login';
      link.textContent = 'Sign in to the admin portal';
      note.append(link, ' in this browser, then reload this page.');
      document.body.prepend(note);
    }
    return response;
  },
};

/** The few browser objects the page's functions use (this module is compiled without the DOM's types). */
interface DocsElement {
  id: string;
  href: string;
  textContent: string;
  style: { cssText: string };
  setAttribute(name: string, value: string): void;
  append(...nodes: Array<string | DocsElement>): void;
  prepend(node: DocsElement): void;
}
interface DocsPage {
  localStorage: { getItem(key: string): string | null };
  document: {
    body: DocsElement;
    getElementById(id: string): DocsElement | null;
    createElement(tag: string): DocsElement;
  };
}

/**
 * `/api/docs/openapi.json` and the Swagger UI page at `/api/docs/` (its assets come from swagger-ui-dist, no CDN).
 * With `requireAdmin`, the document answers only signed-in admins, and the page (which holds nothing of it) fetches
 * it with the admin's token; otherwise the page embeds the current document.
 */
export function mountDocs(app: Express, docs: ApiDocs, requireAdmin?: RequestHandler): void {
  app.get('/api/docs/openapi.json', ...(requireAdmin ? [requireAdmin] : []), async (_req, res) => {
    res.json(await docs.document());
  });
  // The page loads its assets relatively, so it must be addressed with the trailing slash.
  app.get('/api/docs', (req, res, next) => {
    if (req.originalUrl.split('?')[0] === '/api/docs') res.redirect(301, '/api/docs/');
    else next();
  });
  const router = express.Router();
  const options = requireAdmin
    ? { swaggerUrl: '/api/docs/openapi.json', swaggerOptions: SIGNED_IN_OPTIONS }
    : undefined;
  if (!requireAdmin) {
    // The page and its init script embed the current document; the static assets do not need it.
    router.use(async (req, _res, next) => {
      if (req.path === '/' || req.path === '/swagger-ui-init.js') {
        (req as { swaggerDoc?: unknown }).swaggerDoc = await docs.document();
      }
      next();
    });
  }
  router.use(swaggerUi.serveFiles(undefined, options));
  router.get('/', swaggerUi.setup(undefined, { ...options, customSiteTitle: 'Readiness API' }));
  app.use('/api/docs', router);
}

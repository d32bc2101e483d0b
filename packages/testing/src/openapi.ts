/** What the helpers below read of an Express app and of an OpenAPI document (no dependency on either). */
interface ExpressLike {
  router: { stack: readonly { route?: unknown }[] };
}
interface DocumentLike {
  paths: Record<string, Record<string, unknown>>;
}

const OPERATIONAL = new Set(['/healthz', '/readyz', '/metrics', '/openapi.json']);
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** `METHOD /path/{param}` of every API route mounted on the app, sorted (probes, metrics and the document left out). */
function mountedOperations(app: ExpressLike): string[] {
  return app.router.stack
    .flatMap((layer) => {
      const route = layer.route as { path?: unknown; methods: Record<string, boolean> } | undefined;
      if (!route || typeof route.path !== 'string' || OPERATIONAL.has(route.path)) return [];
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      return Object.keys(route.methods)
        .filter((m) => route.methods[m] && m !== '_all')
        .map((m) => `${m.toUpperCase()} ${path}`);
    })
    .sort();
}

/** `METHOD /path` of every operation the document describes, sorted. */
export function documentedOperations(doc: DocumentLike): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => METHODS.has(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort();
}

/** What `servedApiDocument` reads of a service started by the kit's runtime. */
interface ServedLike {
  url: string;
  http: { app: ExpressLike };
}

/**
 * Fetches the document a service serves at `/openapi.json`, next to the operations its document lists and the
 * routes its app really mounts, so a test can assert the two are the same set.
 */
export async function servedApiDocument<D extends DocumentLike>(
  service: ServedLike,
): Promise<{ status: number; doc: D; documented: string[]; mounted: string[] }> {
  const res = await fetch(`${service.url}/openapi.json`);
  const doc = (await res.json()) as D;
  return {
    status: res.status,
    doc,
    documented: documentedOperations(doc),
    mounted: mountedOperations(service.http.app),
  };
}

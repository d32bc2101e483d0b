import { topology } from '@readiness/contracts';
import { danglingRefs, type OpenApiDocument, type Operation } from '@readiness/kit/openapi';
import { documentedOperations, servedApiDocument, startServiceUnderTest } from '@readiness/testing';
import { serviceModules } from '../deploy/all-in-one/src/service-modules';

jest.setTimeout(90_000);

/**
 * Every service of the topology table with an API of its own (the gateway merges them): its module, as the
 * launcher starts it, started by the service test kit on the memory bus, with the object storage its row uses.
 */
const SERVICES = topology
  .filter((row) => row.name !== 'gateway')
  .map((row) => {
    const module = serviceModules[row.name] as Parameters<typeof startServiceUnderTest>[0];
    return [row.name, () => startServiceUnderTest(module, { kind: 'embedded', s3: row.uses.s3 })] as const;
  });

type Schema = { type?: string; anyOf?: unknown[]; oneOf?: unknown[]; $ref?: string };
const answerSchema = (op: Operation | undefined, status: string) =>
  (op?.responses?.[status] as { content?: Record<string, { schema: Schema }> } | undefined)?.content?.[
    'application/json'
  ]?.schema;
/** A schema that says something: a type, a reference, or a choice of shapes (a sign-in answers one of two). */
const described = (schema: Schema | undefined) =>
  Boolean(schema?.type || schema?.$ref || schema?.anyOf?.length || schema?.oneOf?.length);

describe.each(SERVICES)('%s API documentation', (_name, start) => {
  let service: Awaited<ReturnType<typeof start>>;
  let served: Awaited<ReturnType<typeof servedApiDocument<OpenApiDocument>>>;

  beforeAll(async () => {
    service = await start();
    served = await servedApiDocument<OpenApiDocument>(service.service);
  });

  afterAll(async () => {
    await service?.close();
  });

  it('when the document is fetched, then it describes exactly the routes the service serves, with no broken reference', () => {
    expect(served.status).toBe(200);
    expect(served.doc.openapi).toBe('3.1.0');
    expect(served.documented).toEqual(served.mounted);
    expect(danglingRefs(served.doc)).toEqual([]);
  });

  it('when a route is for admins, then the document marks it with the bearer scheme', () => {
    const { doc } = served;
    expect(Object.keys(doc.components.securitySchemes ?? {})).toEqual(['bearerAuth']);
    const unmarked = documentedOperations(doc).filter((operation) => {
      const [method, path] = operation.split(' ') as [string, string];
      const op = doc.paths[path]?.[method.toLowerCase() as 'get'];
      return path.startsWith('/api/admin/') && JSON.stringify(op?.security) !== '[{"bearerAuth":[]}]';
    });
    expect(unmarked).toEqual([]);
  });

  it('when any route succeeds, then the document gives its answer (a redirect for the browser steps of single sign-on), and any JSON body in it, a schema', () => {
    const { doc } = served;
    const missing = documentedOperations(doc).filter((operation) => {
      const [method, path] = operation.split(' ') as [string, string];
      const op = doc.paths[path]?.[method.toLowerCase() as 'get'];
      const success = Object.keys(op?.responses ?? {}).filter((s) => /^(?:2\d\d|30[237])$/.test(s));
      const content = (s: string) =>
        (op?.responses?.[s] as { content?: Record<string, unknown> } | undefined)?.content ?? {};
      return (
        success.length === 0 ||
        success.some(
          (s) => s !== '204' && 'application/json' in content(s) && !described(answerSchema(op, s)),
        )
      );
    });
    expect(missing).toEqual([]);
  });
});

import { danglingRefs, type OpenApiDocument, type Operation } from '@readiness/kit/openapi';
import { documentedOperations, servedApiDocument } from '@readiness/testing';
import { startAssessment } from './assessment/test/harness';
import { startAuth } from './auth/test/harness';
import { startServices as startIntegrations } from './integrations/test/harness';
import { startNotification } from './notification/test/harness';
import { startReport } from './report/test/harness';
import { startResults } from './results/test/harness';
import { startStudent } from './student/test/harness';

jest.setTimeout(90_000);

interface Served {
  url: string;
  http: { app: { router: { stack: readonly { route?: unknown }[] } } };
}

/** Every service with an API of its own, started as its component tests start it (the gateway merges them). */
const SERVICES: Array<[string, () => Promise<{ served: Served; close(): Promise<void> }>]> = [
  ['auth', async () => startAuth('embedded').then((h) => ({ served: h.service, close: h.close }))],
  [
    'assessment',
    async () => startAssessment('embedded').then((h) => ({ served: h.service, close: h.close })),
  ],
  ['student', async () => startStudent('embedded').then((h) => ({ served: h.service, close: h.close }))],
  ['results', async () => startResults('embedded').then((h) => ({ served: h.service, close: h.close }))],
  ['report', async () => startReport('embedded').then((h) => ({ served: h.report, close: h.close }))],
  [
    'notification',
    async () => startNotification('embedded').then((h) => ({ served: h.service, close: h.close })),
  ],
  [
    'integrations',
    async () => startIntegrations().then((h) => ({ served: h.integrations.service, close: h.close })),
  ],
];

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
    served = await servedApiDocument<OpenApiDocument>(service.served);
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

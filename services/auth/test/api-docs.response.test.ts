import type { OpenApiDocument, Operation } from '@readiness/kit/openapi';
import { documentedOperations } from '@readiness/testing';
import { startAuth, type Harness } from './harness';

jest.setTimeout(60_000);

interface Schema {
  type?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
}
const bodySchema = (op: Operation | undefined): Schema | undefined =>
  (op?.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content?.[
    'application/json'
  ]?.schema;
const answerSchema = (op: Operation | undefined, status: string): Schema | undefined =>
  (op?.responses?.[status] as { content?: Record<string, { schema: Schema }> } | undefined)?.content?.[
    'application/json'
  ]?.schema;

describe('auth API documentation, beyond what every service is checked for', () => {
  let harness: Harness;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    harness = await startAuth('embedded');
    const res = await fetch(`${harness.url}/openapi.json`);
    expect(res.status).toBe(200);
    doc = (await res.json()) as OpenApiDocument;
  });

  afterAll(async () => {
    await harness.close();
  });

  it('when a route takes a body, then the document carries the schema its validation uses', () => {
    const login = bodySchema(doc.paths['/api/auth/login']?.post);
    expect(login?.required).toEqual(['email', 'password']);
    expect(login?.properties?.email?.type).toBe('string');
    const create = bodySchema(doc.paths['/api/admin/admins']?.post);
    expect(create?.required).toEqual(['name', 'email', 'password', 'role']);
    expect(JSON.stringify(create?.properties?.role)).toContain('super_admin');
    const audit = doc.paths['/api/admin/audit-log']?.get?.parameters as { name: string; in: string }[];
    expect(audit.map((p) => `${p.in}:${p.name}`)).toEqual([
      'query:limit',
      'query:before',
      'query:from',
      'query:to',
      'query:actor',
      'query:action',
      'query:q',
    ]);
  });

  it('when a route answers, then the document carries the answer schema and marks admin routes with the bearer scheme', () => {
    // A session, or (for an admin with a second factor) the challenge the second step answers with one.
    const [session, secondStep] = answerSchema(doc.paths['/api/auth/login']?.post, '200')?.anyOf ?? [];
    expect(session?.required).toEqual(['token', 'admin']);
    expect(secondStep?.required).toEqual(['mfaRequired', 'challenge', 'enrol', 'methods']);
    expect(answerSchema(doc.paths['/api/admin/admins']?.get, '200')?.properties?.admins?.type).toBe('array');
    // The session routes outside /api/admin need a token too (services/api-docs.response.test.ts checks the rest).
    for (const operation of documentedOperations(doc)) {
      const [method, path] = operation.split(' ') as [string, string];
      const op = doc.paths[path]?.[method.toLowerCase() as 'get'];
      const admin =
        path.startsWith('/api/admin/') ||
        path.startsWith('/api/auth/mfa') ||
        /\/(me|logout|refresh|change-password|sessions(\/\{id\})?|reauthenticate(\/passkey-options)?)$/.test(
          path,
        );
      expect([operation, op?.security]).toEqual([operation, admin ? [{ bearerAuth: [] }] : undefined]);
    }
  });
});

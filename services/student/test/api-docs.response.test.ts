import { danglingRefs, type OpenApiDocument } from '@readiness/kit/openapi';
import { documentedOperations, mountedOperations } from '@readiness/testing';
import { startStudent, type Harness } from './harness';

jest.setTimeout(60_000);

describe('student API documentation', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startStudent('embedded');
  });

  afterAll(async () => {
    await harness.close();
  });

  it('when the document is fetched, then it describes exactly the routes the service serves', async () => {
    const res = await fetch(`${harness.service.url}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as OpenApiDocument;
    expect(doc.openapi).toBe('3.1.0');
    expect(documentedOperations(doc)).toEqual(mountedOperations(harness.service.http.app));
    expect(Object.keys(doc.components.securitySchemes ?? {})).toEqual(['bearerAuth']);
    expect(danglingRefs(doc)).toEqual([]);
  });
});

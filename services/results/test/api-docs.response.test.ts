import { danglingRefs, type OpenApiDocument } from '@readiness/kit/openapi';
import { servedApiDocument } from '@readiness/testing';
import { startResults, type Harness } from './harness';

jest.setTimeout(60_000);

describe('results API documentation', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startResults('embedded');
  });

  afterAll(async () => {
    await harness.close();
  });

  it('when the document is fetched, then it describes exactly the routes the service serves', async () => {
    const { status, doc, documented, mounted } = await servedApiDocument<OpenApiDocument>(harness.service);
    expect(status).toBe(200);
    expect(doc.openapi).toBe('3.1.0');
    expect(documented).toEqual(mounted);
    expect(Object.keys(doc.components.securitySchemes ?? {})).toEqual(['bearerAuth']);
    expect(danglingRefs(doc)).toEqual([]);
  });
});

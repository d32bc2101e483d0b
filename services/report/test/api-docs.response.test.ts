import { danglingRefs, type OpenApiDocument } from '@readiness/kit/openapi';
import { servedApiDocument } from '@readiness/testing';
import { startReport, type Harness } from './harness';

jest.setTimeout(60_000);

describe('report API documentation', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startReport('embedded');
  });

  afterAll(async () => {
    await h?.close();
  });

  it('when the document is fetched, then it describes exactly the routes the service serves', async () => {
    const { status, doc, documented, mounted } = await servedApiDocument<OpenApiDocument>(h.report);
    expect(status).toBe(200);
    expect(documented).toEqual(mounted);
    expect(danglingRefs(doc)).toEqual([]);
  });
});

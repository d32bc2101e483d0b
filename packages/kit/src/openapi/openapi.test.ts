import { z } from 'zod';
import { danglingRefs, describeService, mergeOpenApi, productDocument } from './index';

const base = () => productDocument({ title: 'Readiness API', version: '1.0.0' });

describe('service API documents', () => {
  it('when a route has path, query and body schemas, then the operation carries them as parameters and request body', () => {
    const doc = describeService({
      service: 'demo',
      operations: {
        'PUT /api/admin/things/{id}': {
          summary: 'Edit a thing',
          admin: true,
          params: z.object({ id: z.uuid() }),
          query: z.object({ dryRun: z.enum(['yes', 'no']).optional() }),
          body: z.object({ name: z.string().trim().min(2) }),
          responses: { 200: { description: 'OK', body: z.object({ id: z.string() }) }, 404: 'Not found' },
        },
      },
    });
    const op = doc.paths['/api/admin/things/{id}']?.put;
    expect(op?.security).toEqual([{ bearerAuth: [] }]);
    expect(op?.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: expect.objectContaining({ format: 'uuid' }) },
      { name: 'dryRun', in: 'query', required: false, schema: { type: 'string', enum: ['yes', 'no'] } },
    ]);
    expect(op?.requestBody).toMatchObject({
      content: { 'application/json': { schema: { required: ['name'] } } },
    });
    expect(op?.responses?.['404']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    expect(danglingRefs(doc)).toEqual([]);
  });

  it('when an operation key is not METHOD /path, then describing the service fails at start-up', () => {
    expect(() =>
      describeService({ service: 'demo', operations: { '/api/x': { summary: 'x', responses: {} } } }),
    ).toThrow(/METHOD \/path/);
  });
});

describe('merging documents', () => {
  const one = describeService({
    service: 'one',
    operations: { 'GET /api/one': { summary: 'One', responses: { 200: { description: 'OK' } } } },
  });
  const other = describeService({
    service: 'other',
    operations: { 'GET /api/one': { summary: 'Different', responses: { 200: { description: 'OK' } } } },
  });

  it('when two services describe one operation differently, then the first is kept and the conflict is reported', () => {
    const conflicts: string[] = [];
    const merged = mergeOpenApi(base(), [one, other], (where) => conflicts.push(where));
    expect(merged.paths['/api/one']?.get?.summary).toBe('One');
    expect(conflicts).toEqual(['paths["/api/one"].get']);
  });

  it('when documents share the security scheme, then the merged document defines it once without conflict', () => {
    const conflicts: string[] = [];
    const merged = mergeOpenApi(base(), [one], (where) => conflicts.push(where));
    expect(Object.keys(merged.components.securitySchemes ?? {})).toEqual(['bearerAuth']);
    expect(conflicts).toEqual([]);
  });
});

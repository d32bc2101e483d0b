import { z } from 'zod';
import { danglingRefs, describeService, listPage, mergeOpenApi, pagination, productDocument } from './index';

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

describe('what operations share', () => {
  it('when an admin operation declares no 401, then it answers Not signed in; a 401 of its own is kept', () => {
    const doc = describeService({
      service: 'demo',
      operations: {
        'GET /api/admin/things': {
          summary: 'Things',
          admin: true,
          responses: { 200: { description: 'OK' } },
        },
        'GET /api/admin/me': {
          summary: 'Me',
          admin: true,
          responses: { 200: { description: 'OK' }, 401: 'Missing or expired token' },
        },
        'GET /api/things': { summary: 'Public things', responses: { 200: { description: 'OK' } } },
      },
    });
    const answers = (path: string) =>
      doc.paths[path]?.get?.responses as Record<string, { description: string }>;
    expect(Object.keys(answers('/api/admin/things'))).toEqual(['200', '401']);
    expect(answers('/api/admin/things')['401']?.description).toBe('Not signed in');
    expect(answers('/api/admin/me')['401']?.description).toBe('Missing or expired token');
    expect(Object.keys(answers('/api/things'))).toEqual(['200']);
  });

  it('when a list answers one page, then its pagination says where the page stands, one page at least', () => {
    expect(pagination(1, 20, 0)).toEqual({
      currentPage: 1,
      totalPages: 1,
      totalResults: 0,
      hasNext: false,
      hasPrev: false,
    });
    expect(pagination(2, 20, 41)).toMatchObject({ totalPages: 3, hasNext: true, hasPrev: true });
    expect(pagination(3, 20, 41)).toMatchObject({ totalPages: 3, hasNext: false, hasPrev: true });
    const page = listPage({ things: z.array(z.string()) }, { serverNow: z.string() });
    expect(Object.keys(page.shape)).toEqual(['things', 'pagination', 'serverNow']);
    expect(
      page.safeParse({ things: ['a'], pagination: pagination(1, 20, 1), serverNow: 'now' }).success,
    ).toBe(true);
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

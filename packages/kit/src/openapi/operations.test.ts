import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { z } from 'zod';
import { notFound } from '../errors';
import { createHttpApp } from '../http';
import { createLogger } from '../logger';
import { operationsFor, serviceApi } from './index';

const logger = createLogger({ name: 'operations-test', level: 'silent' });

/** A service's use cases, as its operations' handlers receive them. */
interface Things {
  names: Map<string, string>;
  /** What `PUT /things/{id}` names, apart from the names the other operations read. */
  labels: Map<string, string>;
}

const operation = operationsFor<Things>();
const api = serviceApi<Things>({
  service: 'demo',
  operations: {
    'GET /things/{id}': operation({
      summary: 'One thing',
      params: z.object({ id: z.string().regex(/^t\d+$/, 'id must look like t1') }),
      responses: {
        200: { description: 'The thing', body: z.object({ name: z.string() }) },
        404: 'Not found',
      },
      handle: ({ params }, things) => {
        const name = things.names.get(params.id);
        if (name === undefined) throw notFound('Not found');
        return { name };
      },
    }),
    'POST /things/{id}': operation({
      summary: 'Name a thing',
      params: z.object({ id: z.string() }),
      body: z.object({ name: z.string().trim().min(2, 'Name must be at least 2 characters') }),
      responses: { 201: { description: 'Named', body: z.object({ id: z.string(), name: z.string() }) } },
      handle: ({ params, body }, things) => {
        things.names.set(params.id, body.name);
        return { id: params.id, name: body.name };
      },
    }),
    'GET /things/{id}/drifted': operation({
      summary: 'A handler whose answer drifted from its declaration',
      params: z.object({ id: z.string() }),
      responses: { 200: { description: 'The thing', body: z.object({ name: z.string() }) } },
      handle: () => ({ name: 42 }),
    }),
    'PUT /things/{id}': operation({
      summary: 'Name a thing, or rename it',
      params: z.object({ id: z.string() }),
      query: z.object({ as: z.enum(['declared', 'drifted', 'undeclared']).default('declared') }),
      body: z.object({ name: z.string() }),
      responses: {
        200: { description: 'Renamed', body: z.object({ name: z.string(), was: z.string() }) },
        201: { description: 'Named', body: z.object({ name: z.string() }) },
        400: 'Not a name',
      },
      handle: ({ params, query, body, answer }, things) => {
        const was = things.labels.get(params.id);
        things.labels.set(params.id, body.name);
        if (query.as === 'drifted') return answer(201, { name: 42 } as unknown as { name: string });
        // @ts-expect-error -- 202 is not one of the declared statuses: it does not compile, and fails when forced.
        if (query.as === 'undeclared') return answer(202, { name: body.name });
        return was === undefined ? answer(201, { name: body.name }) : answer(200, { name: body.name, was });
      },
    }),
    'GET /things': operation({
      summary: 'Every thing, as text',
      query: z.object({ sep: z.enum([',', ';']).default(',') }),
      responses: { 200: { description: 'text/plain' } },
      handle: ({ query, res }, things) => {
        res.type('text/plain').send([...things.names.values()].join(query.sep));
      },
    }),
  },
});

describe('operations declared once', () => {
  const things: Things = { names: new Map([['t1', 'Lamp']]), labels: new Map() };
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const http = createHttpApp({ name: 'operations-test', logger, routes: api.routes(things) });
    server = http.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('when the document is built, then it has exactly the declared operations, with their schemas', () => {
    expect(Object.keys(api.openapi.paths).sort()).toEqual([
      '/things',
      '/things/{id}',
      '/things/{id}/drifted',
    ]);
    expect(Object.keys(api.openapi.paths['/things/{id}']!).sort()).toEqual(['get', 'post', 'put']);
    expect(api.openapi.paths['/things/{id}']?.post?.requestBody).toMatchObject({
      content: { 'application/json': { schema: { required: ['name'] } } },
    });
  });

  it('when a handler returns a value, then it is the JSON answer with the first declared success status', async () => {
    const got = await fetch(`${base}/things/t1`);
    expect([got.status, await got.json()]).toEqual([200, { name: 'Lamp' }]);
    const created = await fetch(`${base}/things/t2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '  Desk ' }),
    });
    expect([created.status, await created.json()]).toEqual([201, { id: 't2', name: 'Desk' }]);
  });

  it('when a handler answers with another declared success status, then that status is sent with its body', async () => {
    const put = (id: string, name: string, as = 'declared') =>
      fetch(`${base}/things/${id}?as=${as}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
    const named = await put('t5', 'Chair');
    expect([named.status, await named.json()]).toEqual([201, { name: 'Chair' }]);
    const renamed = await put('t5', 'Stool');
    expect([renamed.status, await renamed.json()]).toEqual([200, { name: 'Stool', was: 'Chair' }]);
  });

  it('when, under test, a second declared status comes with a body its schema refuses, then the call fails with 500', async () => {
    const drifted = await fetch(`${base}/things/t6?as=drifted`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Shelf' }),
    });
    expect(drifted.status).toBe(500);
  });

  it('when a handler answers with a status its operation does not declare as a success, then the call fails with 500', async () => {
    const undeclared = await fetch(`${base}/things/t7?as=undeclared`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench' }),
    });
    expect(undeclared.status).toBe(500);
  });

  it('when the path, query or body does not match its schema, then the answer is 400 naming the field and nothing changes', async () => {
    const badPath = await fetch(`${base}/things/x1`);
    expect([badPath.status, await badPath.json()]).toEqual([
      400,
      { message: 'id must look like t1', code: 'validation_failed', field: 'id' },
    ]);
    const badBody = await fetch(`${base}/things/t3`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x' }),
    });
    expect(badBody.status).toBe(400);
    expect(((await badBody.json()) as { field: string }).field).toBe('name');
    expect(things.names.has('t3')).toBe(false);
    expect((await fetch(`${base}/things?sep=|`)).status).toBe(400);
  });

  it('when, under test, a handler answers with a body its declaration refuses, then the call fails with 500', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    const drifted = await fetch(`${base}/things/t1/drifted`);
    expect(drifted.status).toBe(500);
  });

  it('when a handler answers by itself, then its answer stands; when it throws, then the error handler answers', async () => {
    const list = await fetch(`${base}/things?sep=;`);
    expect([list.status, list.headers.get('content-type'), await list.text()]).toEqual([
      200,
      'text/plain; charset=utf-8',
      'Lamp;Desk',
    ]);
    const missing = await fetch(`${base}/things/t9`);
    expect([missing.status, await missing.json()]).toEqual([
      404,
      { message: 'Not found', code: 'not_found' },
    ]);
  });
});

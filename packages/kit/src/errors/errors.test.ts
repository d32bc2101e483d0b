import express from 'express';
import { AppError, badRequest, conflict, isUnavailableError, toAppError, unavailable } from './index';

function bodyParserError(type: string, status: number): Error {
  return Object.assign(new Error(`raw-body says ${type}`), {
    type,
    status,
    statusCode: status,
    expose: true,
  });
}

describe('toAppError', () => {
  test('when given an AppError, then it is returned unchanged', () => {
    const original = conflict('Email already in use', 'email_taken');
    expect(toAppError(original)).toBe(original);
  });

  test('when the body is too large, then it maps to 413 payload_too_large', () => {
    expect(toAppError(bodyParserError('entity.too.large', 413))).toMatchObject({
      httpStatus: 413,
      code: 'payload_too_large',
    });
  });

  test('when the body is not JSON, then it maps to 400 invalid_json', () => {
    expect(toAppError(bodyParserError('entity.parse.failed', 400))).toMatchObject({
      httpStatus: 400,
      code: 'invalid_json',
    });
  });

  test('when the body has an unsupported charset, then it keeps the 415 of body-parser', () => {
    const mapped = toAppError(bodyParserError('charset.unsupported', 415));
    expect(mapped).toMatchObject({ httpStatus: 415, code: 'bad_request' });
    expect(mapped.message).not.toContain('raw-body');
  });

  test('when the error comes from express.static (http-errors 404), then it stays a 404', () => {
    const notFoundFile = Object.assign(new Error('ENOENT: /srv/web/dist/x.js'), {
      status: 404,
      expose: true,
    });
    expect(toAppError(notFoundFile)).toMatchObject({
      httpStatus: 404,
      code: 'not_found',
      message: 'Not found',
    });
  });

  test('when an internal library error carries a 4xx status without expose, then it is still a 500', () => {
    const upstream = Object.assign(new Error('upstream said 404'), { status: 404 });
    expect(toAppError(upstream)).toMatchObject({ httpStatus: 500, code: 'internal' });
  });

  test.each([
    [
      'ECONNREFUSED',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    [
      '57P01',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    ['08006', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['Connection terminated', new Error('Connection terminated unexpectedly')],
    [
      'a drizzle wrapper',
      new Error('Failed query: select 1', { cause: Object.assign(new Error('x'), { code: '57P03' }) }),
    ],
  ])('when the database or broker is unreachable (%s), then it maps to 503 unavailable', (_name, err) => {
    const mapped = toAppError(err);
    expect(mapped).toMatchObject({
      httpStatus: 503,
      code: 'unavailable',
      message: 'Service temporarily unavailable',
    });
    expect(mapped.cause).toBe(err);
    expect(isUnavailableError(err)).toBe(true);
  });

  test.each([
    ['an Error', new Error('relation "admins" does not exist')],
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a string', 'something odd'],
    ['undefined', undefined],
    ['null', null],
  ])('when the error is unexpected (%s), then it maps to 500 internal without its message', (_name, err) => {
    const mapped = toAppError(err);
    expect(mapped).toMatchObject({ httpStatus: 500, code: 'internal', message: 'Internal server error' });
    expect(mapped.cause).toBe(err);
    expect(mapped.isOperational).toBe(false);
  });

  test('when helpers build client errors, then they are operational with their status', () => {
    expect(badRequest('Name is required')).toMatchObject({
      httpStatus: 400,
      code: 'bad_request',
      isOperational: true,
    });
    expect(unavailable()).toMatchObject({ httpStatus: 503, isOperational: false });
    expect(new AppError('x', 'y')).toBeInstanceOf(Error);
  });
});

describe('errors raised by express itself', () => {
  test('when body-parser rejects a real request, then toAppError recognises its error', async () => {
    const app = express();
    let seen: unknown;
    app.use(express.json({ limit: '10b' }));
    app.post('/', (_req, res) => {
      res.end();
    });
    app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      seen = err;
      res.status(toAppError(err).httpStatus).end();
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ long: 'enough to pass ten bytes' }),
      });
      expect(res.status).toBe(413);
      expect(toAppError(seen).code).toBe('payload_too_large');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('what reaches the logs', () => {
  test('when a drizzle query fails, then the logged cause is the driver error without the query parameters', () => {
    const { DrizzleQueryError } =
      jest.requireActual<typeof import('drizzle-orm/errors')>('drizzle-orm/errors');
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
    });
    const err = new DrizzleQueryError(
      'insert into admins values ($1, $2)',
      ['a@b.c', '$2a$10$secrethash'],
      driverError,
    );
    expect(err.message).toContain('$2a$10$secrethash');
    const appError = toAppError(err);
    expect(appError.httpStatus).toBe(500);
    expect(appError.cause).toBe(driverError);
    expect(JSON.stringify({ message: (appError.cause as Error).message })).not.toContain('secrethash');
  });
});

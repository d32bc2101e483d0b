import { createLogger, currentContext, redactUrl, requestContext } from './index';

function capture(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const destination = {
    write(chunk: string) {
      for (const line of chunk.split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  };
  return { lines, logger: createLogger({ name: 'logger-test', level, destination }) };
}

describe('redaction', () => {
  test('when a line carries a password, a token and an authorization header, then none of them is written', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        password: 'hunter2-password',
        token: 'eyJhbGciOi.secret.token',
        req: {
          headers: {
            authorization: 'Bearer abc.def.ghi',
            cookie: 'sid=cookie-secret',
            accept: 'application/json',
          },
        },
        email: 'ada@example.org',
      },
      'login',
    );
    const text = JSON.stringify(lines);
    expect(text).not.toMatch(/hunter2-password|secret\.token|abc\.def\.ghi|cookie-secret/);
    expect(lines[0]).toMatchObject({
      password: '[redacted]',
      token: '[redacted]',
      req: { headers: { authorization: '[redacted]', cookie: '[redacted]', accept: 'application/json' } },
      email: 'ada@example.org',
      msg: 'login',
    });
  });

  test('when a credential sits one object deep, then it is redacted too', () => {
    const { lines, logger } = capture();
    logger.info(
      { body: { newPassword: 'n3w-pass', inviteToken: 'inv-tok', temporaryPassword: 'tmp-pass' } },
      'reset',
    );
    expect(JSON.stringify(lines)).not.toMatch(/n3w-pass|inv-tok|tmp-pass/);
  });

  test('when redactUrl gets a student or assessment path, then the invitation token is hidden', () => {
    expect(redactUrl('/api/student/abc123/submit')).toBe('/api/student/[redacted]/submit');
    expect(redactUrl('/api/student/abc123')).toBe('/api/student/[redacted]');
    expect(redactUrl('/assessment/abc123/complete?x=1')).toBe('/assessment/[redacted]/complete?x=1');
    expect(redactUrl('/api/admin/students')).toBe('/api/admin/students');
  });

  test('when redactUrl gets a signed certificate link, then its signature is hidden and the rest kept', () => {
    expect(redactUrl('/api/certificates/RDY-AB23-CD45/pdf?expires=1790000000&signature=q1w2e3')).toBe(
      '/api/certificates/RDY-AB23-CD45/pdf?expires=1790000000&signature=[redacted]',
    );
    expect(redactUrl('/api/certificates/RDY-AB23-CD45/pdf?Signature=q1w2e3&expires=1')).toBe(
      '/api/certificates/RDY-AB23-CD45/pdf?Signature=[redacted]&expires=1',
    );
    // A query string alone (a span's url.query).
    expect(redactUrl('signature=q1w2e3&expires=1')).toBe('signature=[redacted]&expires=1');
  });

  test('when redactUrl gets a single sign-on callback, then its code and state are hidden and the rest kept', () => {
    expect(redactUrl('/api/auth/oidc/callback?code=c0de&state=st4te&iss=https%3A%2F%2Fidp')).toBe(
      '/api/auth/oidc/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fidp',
    );
    expect(redactUrl('state=st4te&session_state=x&code=c0de')).toBe(
      'state=[redacted]&session_state=x&code=[redacted]',
    );
    // Only those parameters: a name that merely ends in one is kept.
    expect(redactUrl('/api/admin/x?postcode=1&status=ok')).toBe('/api/admin/x?postcode=1&status=ok');
  });
});

describe('request context', () => {
  test('when logging inside requestContext.run, then the request and correlation ids are on the line', async () => {
    const { lines, logger } = capture();
    await requestContext.run({ requestId: 'req-1', correlationId: 'corr-1' }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      logger.info('inside');
    });
    logger.info('outside');
    expect(lines[0]).toMatchObject({
      msg: 'inside',
      requestId: 'req-1',
      correlationId: 'corr-1',
      service: 'logger-test',
    });
    expect(lines[1]).not.toHaveProperty('requestId');
    expect(currentContext()).toEqual({});
  });

  test('when a child logger is used inside the context, then it carries the ids too', () => {
    const { lines, logger } = capture();
    requestContext.run({ requestId: 'req-2', correlationId: 'corr-2' }, () => {
      logger.child({ component: 'relay' }).warn('child line');
    });
    expect(lines[0]).toMatchObject({
      level: 'warn',
      component: 'relay',
      requestId: 'req-2',
      correlationId: 'corr-2',
    });
  });
});

describe('levels', () => {
  test('when the level is warn, then info lines are dropped', () => {
    const { lines, logger } = capture('warn');
    logger.info('quiet');
    logger.error({ err: new Error('loud') }, 'failed');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'error', err: { message: 'loud', type: 'Error' } });
    expect(typeof lines[0]?.time).toBe('string');
  });
});

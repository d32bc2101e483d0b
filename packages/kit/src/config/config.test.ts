import { z } from 'zod';
import { ConfigError, env, loadConfig, serviceEnv } from './index';

const schema = z.object({
  PORT: env.port(8080),
  DEV_MAIL: env.bool(false),
  DATABASE_URL: env.url(),
  REDIS_URL: env.optionalUrl(),
  LOG_LEVEL: env.logLevel(),
  NODE_ENV: env.nodeEnv(),
});

const base = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/app' };

function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  test('when a required variable is missing, then a ConfigError names it', () => {
    const err = configErrorOf(() => loadConfig(schema, {}));
    expect(err.name).toBe('ConfigError');
    expect(err.message).toContain('DATABASE_URL');
  });

  test('when variables are invalid, then the error names each of them and not the secret values', () => {
    const err = configErrorOf(() =>
      loadConfig(schema, { DATABASE_URL: 'not a url with p4ssw0rd', PORT: '70000', LOG_LEVEL: 'loud' }),
    );
    expect(err.message).toMatch(/DATABASE_URL/);
    expect(err.message).toMatch(/PORT/);
    expect(err.message).toMatch(/LOG_LEVEL/);
    expect(err.message).not.toContain('p4ssw0rd');
  });

  test('when only required variables are set, then the defaults apply', () => {
    expect(loadConfig(schema, base)).toEqual({
      ...base,
      PORT: 8080,
      DEV_MAIL: false,
      REDIS_URL: undefined,
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
    });
  });

  test('when PORT is a number string, then it is coerced to a number', () => {
    expect(loadConfig(schema, { ...base, PORT: '0' }).PORT).toBe(0);
    expect(loadConfig(schema, { ...base, PORT: '3000' }).PORT).toBe(3000);
  });

  test('when PORT is not an integer port, then it is refused', () => {
    for (const PORT of ['http', '-1', '65536', '80.5']) {
      expect(() => loadConfig(schema, { ...base, PORT })).toThrow(/PORT/);
    }
  });

  test.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['TRUE', true],
    ['false', false],
    ['0', false],
    ['no', false],
  ])('when a boolean is %s, then it reads %s', (value, expected) => {
    expect(loadConfig(schema, { ...base, DEV_MAIL: value }).DEV_MAIL).toBe(expected);
  });

  test('when a boolean is something else, then it is refused by name', () => {
    expect(() => loadConfig(schema, { ...base, DEV_MAIL: 'maybe' })).toThrow(/DEV_MAIL/);
  });

  test('when a variable is set but empty, then it counts as unset', () => {
    const config = loadConfig(schema, { ...base, PORT: '', REDIS_URL: '', DEV_MAIL: '', LOG_LEVEL: '' });
    expect(config).toMatchObject({ PORT: 8080, DEV_MAIL: false, LOG_LEVEL: 'info' });
    expect(config.REDIS_URL).toBeUndefined();
  });

  test('when an optional URL is set, then it must be a URL', () => {
    expect(loadConfig(schema, { ...base, REDIS_URL: 'redis://127.0.0.1:6379' }).REDIS_URL).toBe(
      'redis://127.0.0.1:6379',
    );
    expect(() => loadConfig(schema, { ...base, REDIS_URL: 'localhost' })).toThrow(/REDIS_URL/);
  });
});

describe('TRUSTED_PROXIES', () => {
  const service = z.object(serviceEnv);

  test.each(['1', '2', 'loopback', '10.0.0.0/8', '10.0.0.0/8, 192.168.1.10', 'fd00::/8, loopback'])(
    'when it is %s, then it is accepted',
    (TRUSTED_PROXIES) => {
      expect(loadConfig(service, { TRUSTED_PROXIES }).TRUSTED_PROXIES).toBe(TRUSTED_PROXIES);
    },
  );

  test.each(['true', '*', '10.0.0.0/33', 'proxy.example.com', '10.0.0.1/8/2', '-1'])(
    'when it is %s, then the service refuses to start and names the variable',
    (TRUSTED_PROXIES) => {
      expect(() => loadConfig(service, { TRUSTED_PROXIES })).toThrow(/TRUSTED_PROXIES/);
    },
  );

  test('when it is unset, then nobody is trusted', () => {
    expect(loadConfig(service, {}).TRUSTED_PROXIES).toBeUndefined();
  });
});

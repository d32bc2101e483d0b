import { loadConfig } from '@readiness/kit/config';
import { launcherConfigSchema } from '../src/config';

describe('all-in-one launcher configuration', () => {
  test('when HOST is not set, then the product listens on loopback only', () => {
    expect(loadConfig(launcherConfigSchema, {}).HOST).toBe('127.0.0.1');
  });

  test('when HOST says so, then the product listens where it is told', () => {
    expect(loadConfig(launcherConfigSchema, { HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });
});

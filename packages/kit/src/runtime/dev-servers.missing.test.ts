import { loadDevServers } from './dev-servers';

describe('the embedded development servers', () => {
  afterEach(() => jest.resetModules());

  test('when they are installed (a clone), then a service without the URL loads them', async () => {
    const devServers = await loadDevServers('S3_ENDPOINT');
    expect(typeof devServers.startEmbeddedS3).toBe('function');
  });

  test('when they are not installed (an image), then the error names the variable to set', async () => {
    jest.doMock('@readiness/dev-servers', () => {
      throw Object.assign(new Error("Cannot find module '@readiness/dev-servers'"), {
        code: 'MODULE_NOT_FOUND',
      });
    });
    const { loadDevServers: load } = jest.requireActual<typeof import('./dev-servers')>('./dev-servers');
    await expect(load('SMTP_URL')).rejects.toThrow(
      /SMTP_URL is not set and the embedded development servers \(@readiness\/dev-servers\) are not installed: set SMTP_URL/,
    );
  });
});

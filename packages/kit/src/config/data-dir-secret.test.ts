import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dataDirSecret } from './data-dir-secret';

describe('dataDirSecret', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'data-dir-secret-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('when the secret is not there, then it is generated once, kept for its owner only, and read back after', () => {
    const logged: unknown[] = [];
    let made = 0;
    const options = {
      dataDir,
      file: path.join('svc', 'signing.key'),
      generate: () => `secret-${++made}`,
      what: 'the signing key',
      logger: {
        info: (...args: unknown[]) => {
          logged.push(args);
        },
      },
    };
    expect(dataDirSecret(options)).toBe('secret-1');
    expect(dataDirSecret(options)).toBe('secret-1');
    expect(made).toBe(1);
    expect(logged).toEqual([
      [{ file: path.join(dataDir, 'svc', 'signing.key') }, 'generated the signing key for this data folder'],
    ]);
    expect(statSync(path.join(dataDir, 'svc', 'signing.key')).mode & 0o077).toBe(0);
    expect(statSync(path.join(dataDir, 'svc')).mode & 0o077).toBe(0);
    // No draft left beside it.
    expect(readdirSync(path.join(dataDir, 'svc'))).toEqual(['signing.key']);
  });
});

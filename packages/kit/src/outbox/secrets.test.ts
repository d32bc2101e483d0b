import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../logger';
import {
  createSecretBox,
  EVENT_SECRETS_KEY_FILE,
  generateEventSecretsKey,
  loadEventSecretBox,
} from './secrets';

const logger = createLogger({ name: 'secrets-test', level: 'silent' });

describe('event secret box', () => {
  test('when a secret is sealed, then only the same key opens it, and an altered value is refused', () => {
    const key = generateEventSecretsKey();
    const box = createSecretBox(key);
    const sealed = box.seal('Tmp-9fK2-xQ7w-Lp3Z');
    expect(sealed).not.toContain('Tmp-9fK2');
    expect(box.seal('Tmp-9fK2-xQ7w-Lp3Z')).not.toBe(sealed);
    expect(createSecretBox(key).open(sealed)).toBe('Tmp-9fK2-xQ7w-Lp3Z');
    expect(() => createSecretBox(generateEventSecretsKey()).open(sealed)).toThrow();
    // One bit of the ciphertext changed (a changed character could leave the decoded bytes as they were).
    const raw = Buffer.from(sealed.slice('sealed.v1.'.length), 'base64url');
    raw.writeUInt8(raw.readUInt8(raw.length - 1) ^ 0x01, raw.length - 1);
    const flipped = `sealed.v1.${raw.toString('base64url')}`;
    expect(flipped).not.toBe(sealed);
    expect(() => box.open(flipped)).toThrow();
    expect(() => box.open('Tmp-9fK2-xQ7w-Lp3Z')).toThrow();
    expect(() => createSecretBox('too-short')).toThrow('EVENT_SECRETS_KEY must be 32 bytes');
  });

  test('when a value is sealed for another purpose of the same key, then it opens for that purpose only', () => {
    const key = generateEventSecretsKey();
    const tickets = createSecretBox(key, 'readiness lti launch ticket v1');
    const sealed = tickets.seal('{"sub":"42"}');
    expect(createSecretBox(key, 'readiness lti launch ticket v1').open(sealed)).toBe('{"sub":"42"}');
    expect(() => createSecretBox(key).open(sealed)).toThrow();
    expect(() => tickets.open(createSecretBox(key).seal('Tmp-9fK2'))).toThrow();
  });

  test('when no key is configured, then production refuses to start and elsewhere one key is generated per data folder', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'secrets-'));
    try {
      expect(() =>
        loadEventSecretBox({ config: { DATA_DIR: dataDir, NODE_ENV: 'production' }, logger }),
      ).toThrow('EVENT_SECRETS_KEY: is required in production');
      const config = { DATA_DIR: dataDir, NODE_ENV: 'development' };
      const publisher = loadEventSecretBox({ config, logger });
      const consumer = loadEventSecretBox({ config, logger });
      expect(consumer.open(publisher.seal('secret'))).toBe('secret');
      expect(statSync(path.join(dataDir, EVENT_SECRETS_KEY_FILE)).mode & 0o077).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
  test('when services start together on a new data folder, then each one reads the whole key the first one made', async () => {
    // Processes of their own, as `make stack` starts the services (the compiled kit, which `make test` builds first).
    const kit = path.resolve(__dirname, '../../dist/outbox');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'secrets-'));
    const script = `
      const { loadEventSecretBox } = require(${JSON.stringify(kit)});
      const box = loadEventSecretBox({ config: { DATA_DIR: process.argv[1], NODE_ENV: 'development' }, logger: { info() {} } });
      process.stdout.write(box.seal('from ' + process.pid));
    `;
    try {
      const sealed = await Promise.all(
        Array.from(
          { length: 6 },
          () =>
            new Promise<string>((resolve, reject) =>
              execFile(process.execPath, ['-e', script, dataDir], (err, stdout, stderr) =>
                err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
              ),
            ),
        ),
      );
      const box = loadEventSecretBox({ config: { DATA_DIR: dataDir, NODE_ENV: 'development' }, logger });
      for (const message of sealed) expect(box.open(message)).toMatch(/^from \d+$/);
      expect(readdirSync(dataDir)).toEqual([EVENT_SECRETS_KEY_FILE]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { startEmbeddedS3 } from '@readiness/dev-servers';
import { ConfigError, loadConfig } from '../config';
import { createLogger } from '../logger';
import { checkObjectStorage, createObjectStore, objectStorageEnv, objectStoreConnection } from './index';

const logger = createLogger({ name: 'storage-config-test', level: 'silent' });
const schema = z
  .object({ ...objectStorageEnv, NODE_ENV: z.string().default('development') })
  .superRefine(checkObjectStorage);

describe('object storage configuration', () => {
  test('when a service reads the settings the launcher passes for the embedded server, then it stores and reads an object', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'readiness-s3-'));
    const s3 = await startEmbeddedS3({ directory });
    try {
      const config = loadConfig(schema, { ...s3.env, S3_BUCKET: 'readiness-config-test' });
      const connection = objectStoreConnection(config);
      expect(connection).toEqual({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey });
      const store = createObjectStore({
        ...(connection as NonNullable<typeof connection>),
        bucket: config.S3_BUCKET,
        region: config.S3_REGION,
        logger,
      });
      try {
        await store.ensureBucket();
        await store.put('hello.txt', Buffer.from('hello'), { contentType: 'text/plain' });
        expect((await store.getBuffer('hello.txt')).toString()).toBe('hello');
      } finally {
        store.close();
      }
    } finally {
      await s3.close();
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('when nothing is set, then the embedded server stands in with the default bucket and region', () => {
    const config = loadConfig(schema, {});
    expect(objectStoreConnection(config)).toBeUndefined();
    expect(config).toMatchObject({ S3_BUCKET: 'readiness', S3_REGION: 'us-east-1' });
  });

  test('when a production service is given no S3 server, then start-up stops instead of keeping files in the pod', () => {
    expect(() => loadConfig(schema, { NODE_ENV: 'production' })).toThrow(
      /S3_ENDPOINT: is required in production/,
    );
    const named = {
      NODE_ENV: 'production',
      S3_ENDPOINT: 'https://minio.example:9000',
      S3_ACCESS_KEY: 'k',
      S3_SECRET_KEY: 's',
    };
    expect(objectStoreConnection(loadConfig(schema, named))).toMatchObject({
      endpoint: 'https://minio.example:9000',
    });
  });

  test('when S3_ENDPOINT is set without its keys, then start-up stops naming both', () => {
    expect(() => loadConfig(schema, { S3_ENDPOINT: 'https://minio.example:9000' })).toThrow(ConfigError);
    expect(() => loadConfig(schema, { S3_ENDPOINT: 'https://minio.example:9000' })).toThrow(
      /S3_ACCESS_KEY: is required when S3_ENDPOINT is set[\s\S]*S3_SECRET_KEY: is required/,
    );
  });

  test('when the endpoint carries credentials in the URL, then the store refuses it instead of ignoring them', () => {
    expect(() =>
      createObjectStore({
        endpoint: 'http://key:secret@127.0.0.1:9000',
        accessKey: 'k',
        secretKey: 's',
        bucket: 'readiness',
        logger,
      }),
    ).toThrow(/must not carry credentials/);
  });
});

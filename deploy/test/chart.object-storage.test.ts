import { z } from 'zod';
import { loadConfig } from '@readiness/kit/config';
import {
  checkObjectStorage,
  objectStorageEnv,
  objectStoreConnection,
  parseS3Endpoint,
} from '@readiness/kit/storage';
import { containerEnv, render } from './helm';

const schema = z.object(objectStorageEnv).superRefine(checkObjectStorage);
const s3Names = (env: Record<string, string>) =>
  Object.keys(env)
    .filter((k) => k.startsWith('S3_'))
    .sort();

describe('object storage settings in the chart', () => {
  const objects = render({
    set: [
      'services.auth.uses.s3=true',
      'dependencies.s3.endpoint=https://objects.example.edu:9443',
      'dependencies.s3.bucket=readiness-prod',
      'dependencies.s3.region=eu-west-1',
    ],
  });

  test('when a service uses S3, then its container gets exactly the variables the kit reads, and they parse', () => {
    const env = containerEnv(objects, 'auth');
    expect(s3Names(env)).toEqual(Object.keys(objectStorageEnv).sort());
    const config = loadConfig(schema, env);
    expect(objectStoreConnection(config)).toEqual({
      endpoint: 'https://objects.example.edu:9443',
      accessKey: 'readiness-s3/access-key',
      secretKey: 'readiness-s3/secret-key',
    });
    expect(config).toMatchObject({ S3_BUCKET: 'readiness-prod', S3_REGION: 'eu-west-1' });
    expect(parseS3Endpoint(config.S3_ENDPOINT as string)).toEqual({
      endPoint: 'objects.example.edu',
      port: 9443,
      useSSL: true,
    });
  });

  test('when a service does not use S3, then it gets no object storage variables', () => {
    expect(s3Names(containerEnv(objects, 'gateway'))).toEqual([]);
  });

  test('when the default values are rendered, then the endpoint is one the kit accepts', () => {
    const env = containerEnv(render({ set: ['services.auth.uses.s3=true'] }), 'auth');
    expect(() => parseS3Endpoint(loadConfig(schema, env).S3_ENDPOINT as string)).not.toThrow();
  });
});

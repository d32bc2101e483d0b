import { z } from 'zod';
import { env } from '../config';
import type { ObjectStoreConnection } from './object-store';

/**
 * The object storage settings of a service: spread into its config schema and refine it with
 * `checkObjectStorage`. The chart writes the same names (endpoint, bucket and region in the ConfigMap, the keys
 * from a Secret) and the all-in-one launcher passes its embedded server's (`EmbeddedS3.env`).
 */
export const objectStorageEnv = {
  /** `http(s)://host:port` of the S3 API; unset means the embedded server (all-in-one, tests). */
  S3_ENDPOINT: env.optionalUrl(),
  S3_ACCESS_KEY: z.string().min(1).optional(),
  S3_SECRET_KEY: z.string().min(1).optional(),
  /** S3 bucket naming rules: 3–63 lower-case letters, digits, dots and hyphens. */
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name')
    .default('readiness'),
  S3_REGION: z.string().min(1).default('us-east-1'),
};

export interface ObjectStorageConfig {
  S3_ENDPOINT?: string;
  S3_ACCESS_KEY?: string;
  S3_SECRET_KEY?: string;
  S3_BUCKET: string;
  S3_REGION: string;
}

/**
 * An endpoint needs both keys, and keys without an endpoint are a mistake (they would be ignored). Production
 * names its S3 server: files must outlive the pod, and the services that share the bucket must reach the same one.
 */
export function checkObjectStorage(
  config: Partial<ObjectStorageConfig> & { NODE_ENV?: string },
  ctx: z.RefinementCtx,
): void {
  if (config.NODE_ENV === 'production' && !config.S3_ENDPOINT) {
    ctx.addIssue({ code: 'custom', path: ['S3_ENDPOINT'], message: 'is required in production' });
  }
  const keys = ['S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const;
  for (const key of keys) {
    if (config.S3_ENDPOINT && !config[key]) {
      ctx.addIssue({ code: 'custom', path: [key], message: 'is required when S3_ENDPOINT is set' });
    }
    if (!config.S3_ENDPOINT && config[key]) {
      ctx.addIssue({ code: 'custom', path: ['S3_ENDPOINT'], message: `is required when ${key} is set` });
    }
  }
}

/** The connection the config names, or undefined when the embedded server stands in. */
export function objectStoreConnection(config: ObjectStorageConfig): ObjectStoreConnection | undefined {
  if (!config.S3_ENDPOINT || !config.S3_ACCESS_KEY || !config.S3_SECRET_KEY) return undefined;
  return { endpoint: config.S3_ENDPOINT, accessKey: config.S3_ACCESS_KEY, secretKey: config.S3_SECRET_KEY };
}

import type { ServerResponse } from 'node:http';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { Client } from 'minio';
import { AppError, notFound } from '../errors';
import { POOLED_CONNECTION_IDLE_MS } from '../http/keep-alive';
import type { Logger } from '../logger';

/** Where and as whom: `S3_ENDPOINT`, `S3_ACCESS_KEY` and `S3_SECRET_KEY` (see `./config`). */
export interface ObjectStoreConnection {
  /** `http(s)://host[:port]` of the S3 API, without credentials or path. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
}

export interface ObjectStoreOptions extends ObjectStoreConnection {
  bucket: string;
  /** Given explicitly so the client never asks the server for the bucket's location first. */
  region?: string;
  logger: Logger;
}

export interface PutOptions {
  contentType: string;
  /** Byte length of a stream body; without it the stream is buffered (up to `MAX_SINGLE_PUT_BYTES`). */
  size?: number;
  /** User metadata, stored as `x-amz-meta-*` headers; keys are lower-cased by S3. */
  metadata?: Record<string, string>;
  /**
   * Hex SHA-256 of a stream body whose `size` is given: the stream then goes up as it is read, in one signed PUT,
   * instead of being gathered in memory first (what the S3 client does to hash it).
   */
  sha256?: string;
}

/** What `put` stores: a buffer, a stream, or a function that opens the stream (so it can be sent again). */
export type PutBody = Buffer | Readable | (() => Readable);

export interface ObjectStat {
  size: number;
  contentType: string;
  etag: string;
  lastModified: Date;
  metadata: Record<string, string>;
}

export interface ObjectStore {
  readonly bucket: string;
  ensureBucket(): Promise<void>;
  /**
   * A buffer, or a function that opens the body afresh, can be sent again on a new connection when the server had
   * closed the kept-alive one the request went out on; a bare stream cannot.
   */
  put(key: string, body: PutBody, options: PutOptions): Promise<{ etag: string }>;
  /** Throws AppError 404 `not_found` when the object does not exist. */
  get(key: string): Promise<Readable>;
  getBuffer(key: string): Promise<Buffer>;
  /** Throws AppError 404 `not_found` when the object does not exist. */
  stat(key: string): Promise<ObjectStat>;
  /** Removing a missing object is not an error (S3 semantics). */
  remove(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix`; returns how many were removed. */
  removePrefix(prefix: string): Promise<number>;
  exists(key: string): Promise<boolean>;
  presignedGetUrl(key: string, expirySeconds: number, options?: { downloadName?: string }): Promise<string>;
  /** True when the bucket is reachable with these credentials; never throws (readiness probes). */
  ping(): Promise<boolean>;
  close(): void;
}

/**
 * Objects up to this size go up in one PUT. s3rver (the embedded default) has no multipart upload,
 * and everything this product stores (question files, uploads, PDFs) is far below it.
 */
const MAX_SINGLE_PUT_BYTES = 64 * 1024 * 1024;

const MISSING_CODES = new Set(['NotFound', 'NoSuchKey']);

/**
 * How a request fails when it went out on a kept-alive connection the server closed at that moment (its idle
 * timeout): Node reports the reset, a broken pipe or "socket hang up" (ECONNRESET). Every request the store makes
 * is idempotent (PUT of a whole object, GET, HEAD, DELETE), so one more try on a new connection is safe.
 */
const STALE_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE']);

/** True for the 404 `get`, `getBuffer` and `stat` throw when the object does not exist. */
export const isMissingObject = (err: unknown): boolean => err instanceof AppError && err.httpStatus === 404;

/**
 * Host, port and TLS of an S3 endpoint. Credentials travel separately (a secret each), and buckets are addressed
 * by path, so the endpoint is a bare origin; anything else is refused rather than silently ignored.
 */
export function parseS3Endpoint(endpoint: string): { endPoint: string; port: number; useSSL: boolean } {
  const parsed = new URL(endpoint);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`S3_ENDPOINT must use http or https, got ${parsed.protocol}`);
  }
  if (parsed.username || parsed.password) {
    throw new Error('S3_ENDPOINT must not carry credentials: set S3_ACCESS_KEY and S3_SECRET_KEY');
  }
  if (parsed.pathname !== '/' || parsed.search || parsed.hash) {
    throw new Error('S3_ENDPOINT must be an origin (scheme, host and port) without a path');
  }
  const useSSL = parsed.protocol === 'https:';
  return { endPoint: parsed.hostname, port: parsed.port ? Number(parsed.port) : useSSL ? 443 : 80, useSSL };
}

/** RFC 6266 attachment header: an ASCII fallback plus the exact UTF-8 name. */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Streams a stored file to the caller as an attachment under its original name: its type, its length, never
 * sniffed as anything else. A stream that breaks cuts the answer (the caller sees an incomplete download).
 */
export function sendAttachment(
  res: ServerResponse,
  file: { originalName: string; mimetype: string; size: number },
  body: Readable,
  cacheControl?: string,
): void {
  res.setHeader('Content-Type', file.mimetype);
  res.setHeader('Content-Length', String(file.size));
  res.setHeader('Content-Disposition', attachmentDisposition(file.originalName));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (cacheControl) res.setHeader('Cache-Control', cacheControl);
  body.on('error', (err) => res.destroy(err));
  body.pipe(res);
}

function errorCode(err: unknown): string | undefined {
  return (err as { code?: string } | undefined)?.code;
}

async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    total += buf.length;
    if (total > limit) {
      stream.destroy();
      throw new AppError('payload_too_large', 'File is too large', 413);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, total);
}

export function createObjectStore(options: ObjectStoreOptions): ObjectStore {
  const connection = parseS3Endpoint(options.endpoint);
  const { bucket, logger } = options;
  const region = options.region ?? 'us-east-1';
  // Free connections are dropped well before the server closes them. With an agent timeout Node also honours a
  // shorter `Keep-Alive: timeout=N` the server announces, dropping them a second before it.
  const agentOptions = { keepAlive: true, maxSockets: 50, timeout: POOLED_CONNECTION_IDLE_MS };
  const agent = connection.useSSL ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  const client = new Client({
    endPoint: connection.endPoint,
    port: connection.port,
    useSSL: connection.useSSL,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region,
    partSize: MAX_SINGLE_PUT_BYTES,
    // Path-style works for MinIO, s3rver and S3 alike, and needs no wildcard DNS.
    pathStyle: true,
    transportAgent: agent,
  });

  /**
   * Runs a request once more when it met a connection the server had just closed. The other free connections
   * are as old or older, so they are dropped first and the second try goes out on a new one.
   */
  const retryOnStaleConnection = async <T>(request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (err) {
      if (!STALE_CONNECTION_CODES.has(errorCode(err) ?? '')) throw err;
      for (const sockets of Object.values(agent.freeSockets))
        for (const socket of sockets ?? []) socket.destroy();
      logger.info(
        { err, bucket },
        'object storage closed a kept-alive connection; the request is sent again',
      );
      return request();
    }
  };

  const mapMissing = (key: string) => (err: unknown) => {
    if (MISSING_CODES.has(errorCode(err) ?? '')) {
      throw notFound(`Object ${key} was not found`);
    }
    throw err;
  };

  const stat = async (key: string): Promise<ObjectStat> => {
    const info = await retryOnStaleConnection(() => client.statObject(bucket, key)).catch(mapMissing(key));
    const metadata: Record<string, string> = {};
    let contentType = 'application/octet-stream';
    for (const [name, value] of Object.entries(info.metaData ?? {})) {
      if (name.toLowerCase() === 'content-type') contentType = String(value);
      else metadata[name.toLowerCase()] = String(value);
    }
    return { size: info.size, contentType, etag: info.etag, lastModified: info.lastModified, metadata };
  };

  const putOnce = async (
    key: string,
    body: Buffer | Readable,
    { contentType, size, metadata, sha256 }: PutOptions,
  ): Promise<{ etag: string }> => {
    if (!Buffer.isBuffer(body) && size !== undefined && sha256 !== undefined) {
      const prefixed = Object.entries(metadata ?? {}).map(([k, v]) => [`x-amz-meta-${k}`, v]);
      const res = await client.makeRequestStreamAsync(
        {
          method: 'PUT',
          bucketName: bucket,
          objectName: key,
          headers: { 'Content-Type': contentType, 'Content-Length': size, ...Object.fromEntries(prefixed) },
        },
        body,
        // Over HTTPS the client signs 'UNSIGNED-PAYLOAD' and wants no hash.
        client.enableSHA256 ? sha256 : '',
        [200],
        region,
      );
      res.resume();
      return { etag: String(res.headers.etag ?? '').replace(/^"|"$/g, '') };
    }
    const headers: Record<string, string> = { 'Content-Type': contentType, ...metadata };
    let payload: Buffer | Readable = body;
    let length = size;
    if (!Buffer.isBuffer(body) && size === undefined) {
      // Without a length the client would switch to multipart; buffer instead (bounded).
      payload = await readAll(body, MAX_SINGLE_PUT_BYTES);
      length = payload.length;
    }
    if (Buffer.isBuffer(payload)) length = payload.length;
    const result = await client.putObject(bucket, key, payload, length, headers);
    return { etag: result.etag };
  };

  const get = async (key: string): Promise<Readable> =>
    retryOnStaleConnection(() => client.getObject(bucket, key)).catch(mapMissing(key));

  return {
    bucket,

    async ensureBucket() {
      if (await retryOnStaleConnection(() => client.bucketExists(bucket))) return;
      try {
        await retryOnStaleConnection(() => client.makeBucket(bucket, region));
        logger.info({ bucket }, 'object storage bucket created');
      } catch (err) {
        // Another replica may have created it between the check and the call.
        const code = errorCode(err);
        if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw err;
      }
    },

    async put(key, body, options) {
      if (typeof body === 'function') return retryOnStaleConnection(() => putOnce(key, body(), options));
      if (Buffer.isBuffer(body)) return retryOnStaleConnection(() => putOnce(key, body, options));
      return putOnce(key, body, options);
    },

    get,

    async getBuffer(key) {
      return readAll(await get(key), Number.MAX_SAFE_INTEGER);
    },

    stat,

    async remove(key) {
      await retryOnStaleConnection(() => client.removeObject(bucket, key));
    },

    async removePrefix(prefix) {
      if (prefix === '') {
        throw new Error('removePrefix needs a non-empty prefix; emptying a whole bucket is not an operation');
      }
      const names = await retryOnStaleConnection(async () => {
        const listed: string[] = [];
        for await (const item of client.listObjectsV2(bucket, prefix, true)) {
          if (item.name) listed.push(item.name);
        }
        return listed;
      });
      if (names.length === 0) return 0;
      // In quiet mode the server answers only with the keys it failed to delete.
      const failed = (await retryOnStaleConnection(() => client.removeObjects(bucket, names))).filter(
        (entry) => entry != null,
      );
      if (failed.length > 0) {
        throw new AppError('storage_error', 'Some objects could not be removed', 500, {
          details: { prefix, failed: failed.length },
        });
      }
      return names.length;
    },

    async exists(key) {
      try {
        await stat(key);
        return true;
      } catch (err) {
        if (isMissingObject(err)) return false;
        throw err;
      }
    },

    async presignedGetUrl(key, expirySeconds, presignOptions) {
      const respHeaders: Record<string, string> = {};
      if (presignOptions?.downloadName) {
        respHeaders['response-content-disposition'] = attachmentDisposition(presignOptions.downloadName);
      }
      return client.presignedGetObject(bucket, key, expirySeconds, respHeaders);
    },

    async ping() {
      try {
        return await retryOnStaleConnection(() => client.bucketExists(bucket));
      } catch (err) {
        logger.warn({ err, bucket }, 'object storage is not reachable');
        return false;
      }
    },

    close() {
      agent.destroy();
    },
  };
}

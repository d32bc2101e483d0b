import { mkdir } from 'node:fs/promises';

/** A connection as the kit's object store takes it (`ObjectStoreConnection`), and the server behind it. */
export interface EmbeddedS3 {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  /** The same connection as the environment a service reads (`S3_ENDPOINT`, `S3_ACCESS_KEY`, `S3_SECRET_KEY`). */
  env: { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string };
  port: number;
  close(): Promise<void>;
}

// s3rver accepts only its built-in account; it checks no SigV4 signature, so the key is a formality.
const S3RVER_KEY = 'S3RVER';

/**
 * Starts an S3-compatible server in this process on loopback, storing objects as files under
 * `directory`. It is the embedded default for object storage: the same minio-based ObjectStore
 * talks to it. It has no multipart upload, which ObjectStore avoids by uploading in one PUT.
 */
export async function startEmbeddedS3(options: { directory: string; port?: number }): Promise<EmbeddedS3> {
  // Loaded when a server is started, not with the package: s3rver brings about 150 modules (Koa, winston, an XML
  // builder) that a process using no embedded object storage, and every test file importing the package, would load.
  const [{ default: S3rver }] = await Promise.all([
    import('s3rver'),
    mkdir(options.directory, { recursive: true }),
  ]);
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    directory: options.directory,
    silent: true,
    // Buckets are addressed by path; never read a bucket name out of the Host header.
    vhostBuckets: false,
  });
  const address = await server.run();
  // As the kit's servers (SERVER_KEEP_ALIVE_MS), far past its clients' pools (15 s). On Node's default (5 s, closed
  // at 6) a client whose event loop ran late at a peak sent an upload on a connection this server had just closed:
  // "socket hang up", a 503 to the student.
  server.httpServer.keepAliveTimeout = 65_000;
  let closed = false;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    accessKey: S3RVER_KEY,
    secretKey: S3RVER_KEY,
    env: { S3_ENDPOINT: endpoint, S3_ACCESS_KEY: S3RVER_KEY, S3_SECRET_KEY: S3RVER_KEY },
    port: address.port,
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
    },
  };
}

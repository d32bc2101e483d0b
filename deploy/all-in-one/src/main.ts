/**
 * The all-in-one launcher behind `make start`: every service in one process, each on its own loopback
 * port, the gateway on PORT, and the embedded defaults in place of RabbitMQ, Redis, S3 and SMTP. PostgreSQL is a
 * real server started from the binaries npm installed, one database per service.
 */
// First: traces (when OTEL_EXPORTER_OTLP_ENDPOINT is set) wrap express, pg and amqplib before they load.
import '@readiness/kit/telemetry';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { upstreamNames } from '@readiness/contracts';
import { gatewayService } from '@readiness/gateway';
import { devMailRoutes } from '@readiness/notification';
import type { RendererStatus } from '@readiness/report';
import { startEmbeddedPostgres, startEmbeddedS3, startMailCatcher } from '@readiness/dev-servers';
import { createMemoryBus } from '@readiness/kit/bus';
import { createMemoryStore } from '@readiness/kit/cache';
import { loadConfig } from '@readiness/kit/config';
import { createLogger } from '@readiness/kit/logger';
import {
  createServiceHost,
  type RunningService,
  type ServiceHost,
  type ServiceModule,
} from '@readiness/kit/runtime';
import { handleProcessErrors, Shutdown } from '@readiness/kit/shutdown';
import { launcherConfigSchema, onLoopbackOnly } from './config';
import { serviceModules } from './service-modules';

type Upstream = (typeof upstreamNames)[number];
/** What a service module's `setup` lends its in-process neighbours. */
type ExportsOf<M> = M extends ServiceModule<infer _S, infer E, infer _O> ? E : never;

async function main(): Promise<void> {
  const config = loadConfig(launcherConfigSchema);
  const dataDir = path.resolve(config.DATA_DIR);
  const logger = createLogger({ name: 'readiness', level: config.LOG_LEVEL });
  // Services drain in parallel, each within the grace; the margin covers the bus, relays and adapters.
  const shutdown = new Shutdown(logger, (config.SHUTDOWN_GRACE_SECONDS + 5) * 1000);
  handleProcessErrors(logger, shutdown);
  shutdown.onSignals();

  // One PostgreSQL server for every service, registered first so that it stops last, after the services.
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), logger });
  shutdown.add('postgres', () => postgres.stop());

  // Shared embedded infrastructure. A relay's publish through this bus resolves only once every subscriber of
  // the process has committed its effect, so an outbox row is marked sent only then: an event whose handler
  // was interrupted (a crash, kill -9) is still pending on the next start and is delivered again.
  const bus = createMemoryBus({ logger: logger.child({ component: 'bus' }), confirmAfterHandlers: true });
  await bus.start();
  const kv = createMemoryStore();
  shutdown.add('kv', () => kv.close());
  const mail = await startMailCatcher({ logger: logger.child({ component: 'mail-catcher' }) });
  shutdown.add('mail catcher', () => mail.close());
  const s3 = await startEmbeddedS3({ directory: path.join(dataDir, 's3') });
  shutdown.add('s3', () => s3.close());
  const host = createServiceHost({
    databaseUrl: (service) => postgres.ensureDatabase(service),
    bus,
    kv,
    smtpUrl: config.SMTP_URL ?? mail.url,
    s3,
  });
  shutdown.add('services', () => host.stop());

  const env = {
    ...process.env,
    NODE_ENV: config.NODE_ENV,
    LOG_LEVEL: config.LOG_LEVEL,
    DATA_DIR: dataDir,
    PUBLIC_ORIGIN: config.PUBLIC_ORIGIN,
    SHUTDOWN_GRACE_SECONDS: String(config.SHUTDOWN_GRACE_SECONDS),
    HOST: '127.0.0.1',
    PORT: '0',
    INTERNAL_PORT: '0',
    // The services sit behind the gateway on loopback: its X-Forwarded-For carries the client address.
    TRUSTED_PROXIES: 'loopback',
    // On one machine, an LMS on the same machine (a developer's Moodle) may be connected over plain http.
    LTI_ALLOW_HTTP_LOOPBACK: process.env.LTI_ALLOW_HTTP_LOOPBACK ?? String(onLoopbackOnly(config.HOST)),
    // …and webhooks delivered to a receiver on this machine (or its network).
    WEBHOOK_ALLOW_PRIVATE_NETWORKS:
      process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? String(onLoopbackOnly(config.HOST)),
    // The embedded defaults and the shared adapters above stand in for these in this mode.
    DATABASE_URL: undefined,
    AMQP_URL: undefined,
    REDIS_URL: undefined,
    SMTP_URL: undefined,
    S3_ENDPOINT: undefined,
    S3_ACCESS_KEY: undefined,
    S3_SECRET_KEY: undefined,
  };
  const logFor = (name: string, redact?: string[]) => createLogger({ name, level: config.LOG_LEVEL, redact });

  // Every service of the topology table behind the gateway, in its order (auth first). Relays start after the
  // last one, when every subscription is in place. The launcher prints the seeded password once, in its summary.
  const upstreams = {} as Record<Upstream, RunningService<unknown, unknown>>;
  const exportsOf = <N extends Upstream>(name: N) =>
    upstreams[name].exports as ExportsOf<(typeof serviceModules)[N]>;
  for (const name of upstreamNames) {
    upstreams[name] = await host.start(serviceModules[name] as Parameters<ServiceHost['start']>[0], {
      env,
      logger: logFor(name, name === 'auth' ? ['seededAdmin.initialPassword'] : undefined),
    });
    // The services after auth check admin tokens on their own /api/admin routes with auth's keys.
    if (name === 'auth') host.share({ adminVerifier: exportsOf('auth').verifier });
  }
  const auth = exportsOf('auth');
  const webDist = path.resolve(config.WEB_DIST_DIR);
  const gateway = await host.start(gatewayService, {
    env: {
      ...env,
      HOST: config.HOST,
      PORT: String(config.PORT),
      API_DOCS_PUBLIC: process.env.API_DOCS_PUBLIC ?? String(onLoopbackOnly(config.HOST)),
      INTERNAL_PORT: process.env.INTERNAL_PORT ?? '0',
      TRUSTED_PROXIES: process.env.TRUSTED_PROXIES,
      // Each upstream at its `<NAME>_URL`.
      ...Object.fromEntries(upstreamNames.map((name) => [`${name.toUpperCase()}_URL`, upstreams[name].url])),
      WEB_DIST_DIR: existsSync(path.join(webDist, 'index.html')) ? webDist : undefined,
    },
    logger: logFor('gateway'),
    // Tokens are checked with auth's own keys, and signed-out tokens refused from the store auth writes (kv).
    options: {
      verifier: auth.verifier,
      extraRoutes: (app, { requireAdmin }) =>
        app.use(devMailRoutes(mail, onLoopbackOnly(config.HOST) ? undefined : requireAdmin)),
      readyWithUpstreams: true,
    },
  });
  host.startRelays();

  const origin = `http://localhost:${gateway.port}`;
  const lines = [
    '',
    `Readiness is running at ${origin}`,
    `  admin portal   ${origin}/admin/login`,
    `  API docs       ${origin}/api/docs${onLoopbackOnly(config.HOST) ? '' : ' (signed-in admins: HOST is beyond loopback)'}`,
    `  caught e-mail  ${origin}/dev/mail/view${onLoopbackOnly(config.HOST) ? '' : ' (signed-in admins: HOST is beyond loopback)'}`,
    `  metrics        ${gateway.internalUrl}/metrics (internal port)`,
    `  services       ${[...upstreamNames.map((name) => `${name} ${upstreams[name].url}`), `gateway ${gateway.url}`].join(', ')}`,
    `  PDFs           ${describePdfBrowser(exportsOf('report').renderer.status())}`,
    `  embedded       PostgreSQL under ${postgres.dataDir}${postgres.dataDir === path.join(dataDir, 'postgres') ? '' : ` (linked from ${path.join(dataDir, 'postgres')}; removed by a later start once DATA_DIR is gone)`} (a database per service), in-process bus, in-memory cache, S3 ${s3.endpoint}, SMTP ${mail.url}`,
  ];
  if (auth.seededAdmin) {
    lines.push(
      '',
      '  First start: a super admin was created. This password is shown once; sign in and change it.',
      `    e-mail    ${auth.seededAdmin.email}`,
      `    password  ${auth.seededAdmin.password}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

/** Which browser renders PDFs, or why none does: said once at start-up. */
function describePdfBrowser(status: RendererStatus): string {
  if (!status.available) return `not available yet (${status.problem ?? 'no browser'}); PDF calls answer 503`;
  return `${status.source === 'system' ? 'the system Chromium' : status.source} ${status.executablePath} (${status.version})`;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});

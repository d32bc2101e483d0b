/**
 * `make stack`: one process per service, as in Kubernetes, against the PostgreSQL, RabbitMQ and Redis on
 * localhost. Each service gets its own database (created when missing); mail goes to an SMTP catcher
 * started here, readable at http://127.0.0.1:<MAIL_PORT>/dev/mail.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import express from 'express';
import { Client } from 'pg';
import { startMailCatcher } from '@readiness/kit/mail';
import { stackServices } from './stack-services';

const ROOT = path.resolve(__dirname, '../../..');
const PG = process.env.STACK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const AMQP = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const GATEWAY_PORT = Number(process.env.PORT ?? 8080);
const MAIL_PORT = Number(process.env.MAIL_PORT ?? 8025);

async function ensureDatabase(name: string): Promise<string> {
  const client = new Client({ connectionString: PG });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(PG);
  url.pathname = `/${name}`;
  return url.toString();
}

async function main(): Promise<void> {
  const catcher = await startMailCatcher();
  const mailApp = express();
  mailApp.get('/dev/mail', (_req, res) => {
    res.json(catcher.list());
  });
  const mailServer = mailApp.listen(MAIL_PORT, '127.0.0.1');

  const children: ChildProcess[] = [];
  const stopAll = () => {
    for (const child of children) child.kill('SIGTERM');
    mailServer.close();
    void catcher.close();
  };
  process.once('SIGINT', stopAll);
  process.once('SIGTERM', stopAll);

  const urls: Record<string, string> = {};
  for (const svc of stackServices) {
    const port = svc.name === 'gateway' ? GATEWAY_PORT : svc.port;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      // Metrics and verbose readiness, 1000 above the service's port.
      INTERNAL_PORT: String(port + 1000),
      // Services trust the gateway in front of them on loopback; the gateway trusts what it is told.
      TRUSTED_PROXIES: svc.name === 'gateway' ? process.env.TRUSTED_PROXIES : 'loopback',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      AMQP_URL: AMQP,
      REDIS_URL: REDIS,
      SMTP_URL: catcher.url,
      PUBLIC_ORIGIN: `http://localhost:${GATEWAY_PORT}`,
      ...(svc.database ? { DATABASE_URL: await ensureDatabase(`readiness_${svc.name}`) } : {}),
      ...svc.env(urls),
    };
    const child = spawn(process.execPath, [path.join(ROOT, `services/${svc.name}/dist/main.js`)], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('exit', (code) => {
      if (code !== 0 && code !== null) console.error(`${svc.name} exited with ${code}`);
    });
    children.push(child);
    urls[svc.name] = `http://127.0.0.1:${port}`;
  }
  process.stdout.write(
    `\nReadiness local stack: gateway http://localhost:${GATEWAY_PORT}, caught mail http://127.0.0.1:${MAIL_PORT}/dev/mail\n` +
      Object.entries(urls)
        .map(([name, url]) => `  ${name.padEnd(13)} ${url}`)
        .join('\n') +
      '\n',
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});

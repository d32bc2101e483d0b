/**
 * `make stack`: one process per service, as in Kubernetes, against the PostgreSQL, RabbitMQ and Redis on
 * localhost. Each service gets its own database (created when missing); mail goes to an SMTP catcher
 * started here, readable at http://127.0.0.1:<MAIL_PORT>/dev/mail.
 */
import express from 'express';
import { startLocalStack } from './local-stack';
import { stackServices } from './stack-services';

const GATEWAY_PORT = Number(process.env.PORT ?? 8080);
const MAIL_PORT = Number(process.env.MAIL_PORT ?? 8025);

async function main(): Promise<void> {
  const stack = await startLocalStack({
    ports: 'fixed',
    gatewayPort: GATEWAY_PORT,
    pgUrl: process.env.STACK_DATABASE_URL,
    amqpUrl: process.env.AMQP_URL,
    redisUrl: process.env.REDIS_URL,
    output: 'inherit',
  });
  const mailApp = express();
  mailApp.get('/dev/mail', (_req, res) => {
    res.json(stack.mail.list());
  });
  const mailServer = mailApp.listen(MAIL_PORT, '127.0.0.1');

  const stopAll = () => {
    mailServer.close();
    void stack.stop();
  };
  process.once('SIGINT', stopAll);
  process.once('SIGTERM', stopAll);

  process.stdout.write(
    `\nReadiness local stack: gateway http://localhost:${GATEWAY_PORT}, caught mail http://127.0.0.1:${MAIL_PORT}/dev/mail\n` +
      stackServices.map((svc) => `  ${svc.name.padEnd(13)} ${stack.service(svc.name).url}`).join('\n') +
      '\n',
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});

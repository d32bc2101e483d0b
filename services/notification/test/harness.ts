import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { AdminPasswordResetSchema, create, encodePayload } from '@readiness/contracts';
import { createMemoryBus, createRabbitBus, type BusMessage, type EventBus } from '@readiness/kit/bus';
import { openDatabase, type Database } from '@readiness/kit/db';
import { createLogger } from '@readiness/kit/logger';
import { createMailer, startMailCatcher, type MailCatcher, type Mailer } from '@readiness/kit/mail';
import {
  createTestDatabase,
  createTestVhost,
  rewriteUrlPort,
  startTcpProxy,
  type TcpProxy,
} from '@readiness/testing';
import { start, type RunningNotificationService } from '../src';

export const logger = createLogger({ name: 'notification-test', level: 'silent' });

export interface Harness {
  service: RunningNotificationService;
  database: Database;
  bus: EventBus;
  catcher: MailCatcher;
  /** Sits between the mailer and the catcher, so a test can take the SMTP server away. */
  smtpProxy: TcpProxy;
  close(): Promise<void>;
}

/**
 * The service in-process on port 0 with the kit's SMTP catcher as its mail server (through a cuttable
 * proxy): against a fresh PostgreSQL database and RabbitMQ vhost (`real`), or a fresh PostgreSQL database and the memory bus.
 */
export async function startNotification(
  kind: 'real' | 'embedded',
  options: { maxAttempts?: number } = {},
): Promise<Harness> {
  const closers: Array<() => Promise<void>> = [];
  let database: Database;
  let bus: EventBus;
  const retryDelaysMs = [100, 200, 400];
  if (kind === 'real') {
    const [db, vhost] = await Promise.all([createTestDatabase(), createTestVhost()]);
    closers.push(db.close, vhost.close);
    database = await openDatabase({ url: db.url, logger });
    bus = createRabbitBus({ url: vhost.url, service: 'notification', logger, retryDelaysMs });
  } else {
    const db = await createTestDatabase();
    closers.push(db.close);
    database = await openDatabase({ url: db.url, logger });
    bus = createMemoryBus({ logger, service: 'notification', retryDelaysMs });
  }
  const catcher = await startMailCatcher();
  const smtpProxy = await startTcpProxy({ host: '127.0.0.1', port: catcher.port });
  const mailer: Mailer = createMailer({
    smtpUrl: rewriteUrlPort(catcher.url, smtpProxy.port),
    from: 'Readiness <no-reply@readiness.test>',
    logger,
  });
  await bus.start();
  const service = await start({
    config: {
      PORT: 0,
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PUBLIC_ORIGIN: 'https://readiness.example.edu',
      MAIL_MAX_ATTEMPTS: options.maxAttempts ?? 4,
    },
    logger,
    database,
    bus,
    mailer,
  });
  return {
    service,
    database,
    bus,
    catcher,
    smtpProxy,
    close: async () => {
      await service.stop();
      await bus.close();
      mailer.close();
      await smtpProxy.close();
      await catcher.close();
      await database.close();
      for (const close of closers.reverse()) await close();
    },
  };
}

export function passwordResetEvent(
  overrides: Partial<{ id: string; name: string; email: string; temporaryPassword: string }> = {},
): BusMessage {
  const name = overrides.name ?? 'Ada Lovelace';
  return {
    id: overrides.id ?? randomUUID(),
    name: 'auth.admin.password-reset.v1',
    occurredAt: new Date(),
    correlationId: randomUUID(),
    source: 'auth',
    payload: encodePayload(
      'auth.admin.password-reset.v1',
      create(AdminPasswordResetSchema, {
        adminId: randomUUID(),
        name,
        email: overrides.email ?? 'ada@example.edu',
        temporaryPassword: overrides.temporaryPassword ?? 'Tmp-9fK2-xQ7w-Lp3Z',
      }),
    ),
  };
}

export async function deliveryRows(database: Database) {
  return database.execute<{
    event_id: string;
    template: string;
    recipient: string;
    subject: string;
    status: string;
    attempts: number;
    last_error: string | null;
  }>(
    sql`SELECT event_id, template, recipient, subject, status, attempts, last_error FROM deliveries ORDER BY created_at`,
  );
}

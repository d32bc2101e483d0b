import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { AdminPasswordResetSchema, StudentInvitedSchema, create, encodePayload } from '@readiness/contracts';
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
import type { JwtVerifier } from '@readiness/kit/auth';
import type { KeyValueStore } from '@readiness/kit/cache';
import { createSecretBox, generateEventSecretsKey, type SecretBox } from '@readiness/kit/outbox';
import { startService, type RunningService } from '@readiness/kit/runtime';
import { notificationService, type NotificationConfig } from '../src';
import type { NotificationConfigInput } from '../src/config';

export const logger = createLogger({ name: 'notification-test', level: 'silent' });

/** The key the auth service would share with this one; events built here are sealed with it. */
export const TEST_EVENT_SECRETS_KEY = generateEventSecretsKey();
const testSecrets = createSecretBox(TEST_EVENT_SECRETS_KEY);

export interface Harness {
  service: RunningService<NotificationConfig, undefined>;
  database: Database;
  bus: EventBus;
  catcher: MailCatcher;
  /** Sits between the mailer and the catcher, so a test can take the SMTP server away. */
  smtpProxy: TcpProxy;
  /** Seals event secrets with the service's key, as the auth service does. */
  secrets: SecretBox;
  close(): Promise<void>;
}

/**
 * The service in-process on port 0, started by the kit's runtime, with the kit's SMTP catcher as its mail server
 * (through a cuttable proxy): against a fresh PostgreSQL database and RabbitMQ vhost (`real`), or a fresh
 * PostgreSQL database and the memory bus.
 */
export async function startNotification(
  kind: 'real' | 'embedded',
  options: {
    maxAttempts?: number;
    config?: Partial<NotificationConfigInput>;
    kv?: KeyValueStore;
    adminVerifier?: JwtVerifier;
  } = {},
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
  const service = await startService(notificationService, {
    config: {
      PORT: 0,
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PUBLIC_ORIGIN: 'https://readiness.example.edu',
      MAIL_MAX_ATTEMPTS: options.maxAttempts ?? 4,
      EVENT_SECRETS_KEY: TEST_EVENT_SECRETS_KEY,
      ...options.config,
    },
    logger,
    adapters: { database, bus, mailer },
    shared: { kv: options.kv, adminVerifier: options.adminVerifier },
  });
  return {
    service,
    database,
    bus,
    catcher,
    smtpProxy,
    secrets: testSecrets,
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
        sealedTemporaryPassword: testSecrets.seal(overrides.temporaryPassword ?? 'Tmp-9fK2-xQ7w-Lp3Z'),
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
    // The log row joined with the kit's claim, in the words of the delivery log: queued, sending, sent, failed.
    sql`SELECT d.event_id, d.template, d.recipient, d.subject,
          CASE c.status WHEN 'pending' THEN 'queued' WHEN 'running' THEN 'sending' WHEN 'done' THEN 'sent' ELSE c.status END AS status,
          c.attempts, c.last_error
        FROM deliveries d JOIN effect_claims c ON c.scope = 'mail:' || d.template AND c.key = d.event_id::text
        ORDER BY d.created_at`,
  );
}

/** An invitation event as the student service publishes it, the link sealed with the shared key. */
export function invitationEvent(
  overrides: Partial<{
    id: string;
    studentId: string;
    name: string;
    email: string;
    url: string;
    title: string;
    extraTimePercent: number;
  }> = {},
): BusMessage {
  return {
    id: overrides.id ?? randomUUID(),
    name: 'student.student.invited.v1',
    occurredAt: new Date(),
    source: 'student',
    payload: encodePayload(
      'student.student.invited.v1',
      create(StudentInvitedSchema, {
        studentId: overrides.studentId ?? randomUUID(),
        name: overrides.name ?? 'Ada Lovelace',
        email: overrides.email ?? 'ada@example.edu',
        sealedInvitationUrl: testSecrets.seal(
          overrides.url ?? 'https://readiness.example.edu/assessment/tok',
        ),
        assessmentTitle: overrides.title ?? '',
        timeLimitMinutes: overrides.title ? 30 : 0,
        extraTimePercent: overrides.extraTimePercent ?? 0,
        expiresAt: new Date(Date.now() + 60 * 86_400_000).toISOString(),
      }),
    ),
  };
}

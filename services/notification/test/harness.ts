import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  AdminFactorChangedSchema,
  AdminPasswordResetSchema,
  FactorChange,
  StudentInvitationResentSchema,
  StudentInvitedSchema,
  StudentDeletedSchema,
  StudentReminderRequestedSchema,
  create,
  encodePayload,
} from '@readiness/contracts';
import { startMailCatcher, type MailCatcher } from '@readiness/dev-servers';
import type { JwtVerifier } from '@readiness/kit/auth';
import type { BusMessage } from '@readiness/kit/bus';
import type { KeyValueStore } from '@readiness/kit/cache';
import type { Database } from '@readiness/kit/db';
import { createLogger } from '@readiness/kit/logger';
import { createMailer } from '@readiness/kit/mail';
import { createSecretBox, generateEventSecretsKey, type SecretBox } from '@readiness/kit/outbox';
import { createObjectStore, type ObjectStore } from '@readiness/kit/storage';
import {
  rewriteUrlPort,
  startServiceUnderTest,
  startTcpProxy,
  type ServiceUnderTest,
  type TcpProxy,
} from '@readiness/testing';
import { notificationService, type NotificationConfig } from '../src';
import type { NotificationConfigInput } from '../src/config';

export const logger = createLogger({ name: 'notification-test', level: 'silent' });

/** The key the auth service would share with this one; events built here are sealed with it. */
export const TEST_EVENT_SECRETS_KEY = generateEventSecretsKey();
const testSecrets = createSecretBox(TEST_EVENT_SECRETS_KEY);

export interface Harness extends ServiceUnderTest<NotificationConfig, undefined, never> {
  catcher: MailCatcher;
  /** Sits between the mailer and the catcher, so a test can take the SMTP server away. */
  smtpProxy: TcpProxy;
  /** Seals event secrets with the service's key, as the auth service does. */
  secrets: SecretBox;
  /** The bucket the service reads certificate PDFs from, as the report service writes it. */
  storage: ObjectStore;
}

/**
 * The service in-process on port 0, started by the kit's runtime, with the kit's SMTP catcher as its mail server
 * (through a cuttable proxy) and an S3 server of its own: against a fresh PostgreSQL database and RabbitMQ vhost (`real`), or a fresh
 * PostgreSQL database and the memory bus. Admin tokens are checked as its config says (or by `adminVerifier`).
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
  const catcher = await startMailCatcher();
  const smtpProxy = await startTcpProxy({ host: '127.0.0.1', port: catcher.port });
  const mailer = createMailer({
    smtpUrl: rewriteUrlPort(catcher.url, smtpProxy.port),
    from: 'Readiness <no-reply@readiness.test>',
    logger,
  });
  const h = await startServiceUnderTest(notificationService, {
    kind,
    config: {
      PUBLIC_ORIGIN: 'https://readiness.example.edu',
      MAIL_MAX_ATTEMPTS: options.maxAttempts ?? 4,
      EVENT_SECRETS_KEY: TEST_EVENT_SECRETS_KEY,
      ...options.config,
    },
    mailer,
    s3: true,
    retryDelaysMs: [100, 200, 400],
    trustTestTokens: false,
    shared: { kv: options.kv, adminVerifier: options.adminVerifier },
  });
  const storage = createObjectStore({
    endpoint: h.s3Config.S3_ENDPOINT!,
    accessKey: h.s3Config.S3_ACCESS_KEY!,
    secretKey: h.s3Config.S3_SECRET_KEY!,
    bucket: h.service.config.S3_BUCKET,
    region: h.service.config.S3_REGION,
    logger,
  });
  h.onClose(async () => {
    storage.close();
    mailer.close();
    await smtpProxy.close();
    await catcher.close();
  });
  return Object.assign(h, { catcher, smtpProxy, secrets: testSecrets, storage });
}

/** How many consumers of `queue` are pausing for students waiting at the peak (the runtime's metric). */
export async function yielding(h: Harness, queue: string): Promise<number> {
  const text = await (await fetch(`${h.service.internalUrl}/metrics`)).text();
  return Number(
    new RegExp(`^bus_consumers_yielding\\{[^}]*queue="${queue}"[^}]*\\} (\\d+)$`, 'm').exec(text)?.[1],
  );
}

/** A student erased, as the student service announces it (an admin's Delete or the retention job). */
export function studentDeletedEvent(studentId: string, email: string): BusMessage {
  return {
    id: randomUUID(),
    name: 'student.student.deleted.v1',
    occurredAt: new Date(),
    source: 'student',
    payload: encodePayload('student.student.deleted.v1', create(StudentDeletedSchema, { studentId, email })),
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

export function factorChangedEvent(
  overrides: Partial<{ change: FactorChange; factorName: string; actorId: string; actorName: string }> = {},
): BusMessage {
  const adminId = randomUUID();
  return {
    id: randomUUID(),
    name: 'auth.admin.factor-changed.v1',
    occurredAt: new Date(),
    correlationId: randomUUID(),
    source: 'auth',
    payload: encodePayload(
      'auth.admin.factor-changed.v1',
      create(AdminFactorChangedSchema, {
        adminId,
        name: 'Ada <Lovelace>',
        email: 'ada@example.edu',
        change: overrides.change ?? FactorChange.PASSKEY_ADDED,
        factorName: overrides.factorName ?? '',
        actorId: overrides.actorId ?? adminId,
        actorName: overrides.actorName ?? 'Ada <Lovelace>',
        changedAt: { seconds: BigInt(Date.UTC(2026, 2, 3, 14, 5) / 1000), nanos: 0 },
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

/** An invitation event (or its resend) as the student service publishes it, the link sealed with the shared key. */
export function invitationEvent(
  overrides: Partial<{
    id: string;
    studentId: string;
    name: string;
    email: string;
    url: string;
    title: string;
    extraTimePercent: number;
    language: string;
    /** The title in the student's language; absent: left empty, as an older student service sends it. */
    localizedTitle: string;
    resent: boolean;
    /** A reminder (student.reminder.requested.v1) instead of an invitation. */
    reminder: boolean;
  }> = {},
): BusMessage {
  const fields = {
    studentId: overrides.studentId ?? randomUUID(),
    name: overrides.name ?? 'Ada Lovelace',
    email: overrides.email ?? 'ada@example.edu',
    sealedInvitationUrl: testSecrets.seal(overrides.url ?? 'https://readiness.example.edu/assessment/tok'),
    assessmentTitle: overrides.title ?? '',
    timeLimitMinutes: overrides.title ? 30 : 0,
    extraTimePercent: overrides.extraTimePercent ?? 0,
    expiresAt: new Date(Date.now() + 60 * 86_400_000).toISOString(),
    language: overrides.language ?? '',
    localizedTitle: overrides.localizedTitle ?? '',
  };
  const base = { id: overrides.id ?? randomUUID(), occurredAt: new Date(), source: 'student' };
  if (overrides.reminder) {
    const payload = create(StudentReminderRequestedSchema, { ...fields, reminderNumber: 1 });
    return {
      ...base,
      name: 'student.reminder.requested.v1',
      payload: encodePayload('student.reminder.requested.v1', payload),
    };
  }
  return overrides.resent
    ? {
        ...base,
        name: 'student.invitation.resent.v1',
        payload: encodePayload('student.invitation.resent.v1', create(StudentInvitationResentSchema, fields)),
      }
    : {
        ...base,
        name: 'student.student.invited.v1',
        payload: encodePayload('student.student.invited.v1', create(StudentInvitedSchema, fields)),
      };
}

import { randomUUID } from 'node:crypto';
import {
  CertificateResendRequestedSchema,
  ResultDeletedSchema,
  StudentDeletedSchema,
  create,
  encodePayload,
  type CertificateIssuedV2,
  type EventName,
  type EventPayload,
} from '@readiness/contracts';
import { startMailCatcher, type MailCatcher } from '@readiness/dev-servers';
import { createRabbitBus, type EventBus } from '@readiness/kit/bus';
import { openDatabase, type Database } from '@readiness/kit/db';
import { createLogger } from '@readiness/kit/logger';
import { createMailer } from '@readiness/kit/mail';
import { startService, type RunningService } from '@readiness/kit/runtime';
import { parseS3Endpoint } from '@readiness/kit/storage';
import { Client } from 'minio';
import { notificationService } from '@readiness/notification';
import { createTestDatabase, eventually, startServiceUnderTest, testAdminToken } from '@readiness/testing';
import { resultFacts } from './events';
import {
  reportService,
  type ReportConfig,
  type ReportConfigInput,
  type ReportOptions,
  type Renderer,
} from '../src';
import { resultRecorded, versionPublished, type ResultFacts } from './events';

export { pdfText, resultFacts, VERSION_ID, type ResultFacts } from './events';

export const logger = createLogger({ name: 'report-test', level: 'silent' });

export const PUBLIC_ORIGIN = 'https://readiness.example.edu';

/** An admin token as auth signs it. */
export const adminToken = () => testAdminToken();

export interface Harness {
  report: RunningService<ReportConfig, { renderer: Renderer }>;
  url: string;
  database: Database;
  bus: EventBus;
  mail: MailCatcher;
  /** Every report.certificate.issued.v2 the bus delivered, decoded. */
  readonly issued: CertificateIssuedV2[];
  /** Every report.report.downloaded.v1 the bus delivered (the admins' PDF downloads, for the audit log). */
  readonly downloaded: Array<EventPayload<'report.report.downloaded.v1'>>;
  /** Publishes an event as its owner would; `id` repeats a delivery. */
  publish<N extends EventName>(name: N, payload: EventPayload<N>, id?: string): Promise<string>;
  publishVersion(): Promise<void>;
  publishResult(facts: ResultFacts, id?: string): Promise<string>;
  resend(facts: ResultFacts): Promise<string>;
  deleteResult(facts: ResultFacts): Promise<void>;
  deleteStudent(facts: ResultFacts): Promise<void>;
  get(urlPath: string, options?: { token?: string | null }): Promise<Response>;
  objects(prefix?: string): Promise<string[]>;
  /** A stored object's bytes. */
  object(key: string): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * The report service in-process on port 0, with the notification service beside it on the same bus and an SMTP
 * catcher, both reaching one S3 server through S3_ENDPOINT: against fresh PostgreSQL databases and a RabbitMQ vhost
 * (`real`), or the memory bus (`embedded`).
 */
export async function startReport(
  kind: 'real' | 'embedded',
  options: { config?: Partial<ReportConfigInput>; options?: ReportOptions } = {},
): Promise<Harness> {
  const h = await startServiceUnderTest(reportService, {
    kind,
    config: { PUBLIC_ORIGIN, PROVIDER_NAME: 'Northfield College', ...options.config },
    watch: ['report.certificate.issued.v2', 'report.report.downloaded.v1'],
    s3: true,
    retryDelaysMs: [100, 200, 400],
    options: options.options,
  });
  const close = () => h.close();
  try {
    // The notification service beside it mails the certificates: the same memory bus, or its own on the vhost.
    const notificationDb = await createTestDatabase();
    h.onClose(notificationDb.close);
    const notificationDatabase = await openDatabase({ url: notificationDb.url, logger });
    h.onClose(() => notificationDatabase.close());
    const notificationBus = h.amqpUrl
      ? createRabbitBus({ url: h.amqpUrl, service: 'notification', logger, retryDelaysMs: [100, 200, 400] })
      : h.bus;
    if (notificationBus !== h.bus) {
      h.onClose(() => notificationBus.close());
      await notificationBus.start();
    }
    const mail = await startMailCatcher({ logger });
    h.onClose(() => mail.close());
    const mailer = createMailer({ smtpUrl: mail.url, from: 'Readiness <no-reply@readiness.test>', logger });
    h.onClose(() => mailer.close());
    const notification = await startService(notificationService, {
      // The report service's bucket, where it reads the PDFs it mails.
      config: {
        PORT: 0,
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        PUBLIC_ORIGIN,
        ...h.s3Config,
      },
      logger,
      adapters: { database: notificationDatabase, bus: notificationBus, mailer },
    });
    h.onClose(() => notification.stop());
    const { database, bus } = h;
    const report = h.service;

    const publish: Harness['publish'] = async (name, payload, id = randomUUID()) => {
      await bus.publish([
        { id, name, occurredAt: new Date(), source: 'test', payload: encodePayload(name, payload) },
      ]);
      return id;
    };
    const token = adminToken();
    /** A client of the S3 server both services reach, to see what is stored. */
    const s3Client = () => {
      const s3 = h.s3Config;
      const { endPoint, port } = parseS3Endpoint(s3.S3_ENDPOINT!);
      return new Client({
        endPoint,
        port,
        useSSL: false,
        accessKey: s3.S3_ACCESS_KEY!,
        secretKey: s3.S3_SECRET_KEY!,
        region: 'us-east-1',
        pathStyle: true,
      });
    };
    return {
      report,
      url: report.url,
      database,
      bus,
      mail,
      get issued() {
        return h.eventsNamed('report.certificate.issued.v2').map((e) => e.payload);
      },
      get downloaded() {
        return h.eventsNamed('report.report.downloaded.v1').map((e) => e.payload);
      },
      publish,
      async publishVersion() {
        await publish('assessment.version.published.v1', versionPublished());
      },
      publishResult(facts, id) {
        return publish('results.result.recorded.v1', resultRecorded(facts), id);
      },
      resend(facts) {
        return publish(
          'results.certificate.resend-requested.v1',
          create(CertificateResendRequestedSchema, {
            resultId: facts.resultId,
            studentId: facts.studentId,
            name: facts.name,
            email: facts.email,
            assessmentCode: facts.assessmentCode,
            actorId: randomUUID(),
          }),
        );
      },
      async deleteResult(facts) {
        await publish(
          'results.result.deleted.v1',
          create(ResultDeletedSchema, {
            resultId: facts.resultId,
            studentId: facts.studentId,
            actorId: randomUUID(),
          }),
        );
      },
      async deleteStudent(facts) {
        await publish(
          'student.student.deleted.v1',
          create(StudentDeletedSchema, {
            studentId: facts.studentId,
            email: facts.email,
            actorId: randomUUID(),
          }),
        );
      },
      get(urlPath, opts = {}) {
        const bearer = opts.token === undefined ? token : opts.token;
        return fetch(`${report.url}${urlPath}`, {
          headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
        });
      },
      async objects(prefix = 'certificates/') {
        const names: string[] = [];
        for await (const item of s3Client().listObjectsV2(report.config.S3_BUCKET, prefix, true)) {
          if (item.name) names.push(item.name);
        }
        return names;
      },
      async object(key) {
        const chunks: Buffer[] = [];
        for await (const chunk of await s3Client().getObject(report.config.S3_BUCKET, key)) {
          chunks.push(chunk as Buffer);
        }
        return Buffer.concat(chunks);
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** A passed result published for `name` and `email`, once its certificate is issued. */
export async function issuedPass(h: Harness, name: string, email: string, percentage: number) {
  const facts = resultFacts({ name, email, percentage });
  await h.publishResult(facts);
  await eventually(() => h.issued.some((e) => e.resultId === facts.resultId), 'the certificate', 30_000);
  return facts;
}

import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import jwt from 'jsonwebtoken';
import {
  AdminCreatedSchema,
  create,
  decodePayload,
  encodePayload,
  type EventPayload,
} from '@readiness/contracts';
import { createJwtVerifier } from '@readiness/kit/auth';
import { createMemoryBus, createRabbitBus, type EventBus } from '@readiness/kit/bus';
import { openDatabase, type Database } from '@readiness/kit/db';
import { createLogger } from '@readiness/kit/logger';
import { startService, type RunningService } from '@readiness/kit/runtime';
import { startEmbeddedS3, type EmbeddedS3 } from '@readiness/kit/storage';
import { createTestDatabase, createTestVhost, eventually } from '@readiness/testing';
import { assessmentService, type AssessmentConfig, type AssessmentConfigInput } from '../src';

export const logger = createLogger({ name: 'assessment-test', level: 'silent' });

const ISSUER = 'readiness-auth';
const AUDIENCE = 'readiness-admin';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const forger = generateKeyPairSync('rsa', { modulusLength: 2048 });
const kid = randomUUID();

/** An admin token as auth signs it; `forged` signs with a key auth never published. */
export function adminToken(adminId: string = randomUUID(), options: { forged?: boolean } = {}): string {
  return jwt.sign({ role: 'admin', sid: randomUUID() }, options.forged ? forger.privateKey : privateKey, {
    algorithm: 'RS256',
    keyid: kid,
    subject: adminId,
    jwtid: randomUUID(),
    issuer: ISSUER,
    audience: AUDIENCE,
    expiresIn: 600,
  });
}

type Published = EventPayload<'assessment.version.published.v1'>;

export interface Harness {
  service: RunningService<AssessmentConfig, undefined>;
  url: string;
  database: Database;
  bus: EventBus;
  /** Every `assessment.version.published.v1` the bus delivered, decoded. */
  published: Published[];
  /** Announces an admin as auth does (`auth.admin.created.v1`), so versions carry the name. */
  announceAdmin(adminId: string, name: string): Promise<void>;
  call(method: string, urlPath: string, options?: { token?: string; body?: unknown }): Promise<Response>;
  upload(name: string, data: Buffer, token: string): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The service in-process on port 0, started by the kit's runtime against a fresh PostgreSQL database: with a
 * RabbitMQ vhost and an S3 server it reaches through S3_ENDPOINT (`real`), or with the memory bus and the
 * runtime's own embedded S3 under DATA_DIR (`embedded`). The seed is off unless the config turns it on.
 */
export async function startAssessment(
  kind: 'real' | 'embedded',
  options: { config?: Partial<AssessmentConfigInput> } = {},
): Promise<Harness> {
  const closers: Array<() => Promise<void> | void> = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'assessment-test-'));
  closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const db = await createTestDatabase();
  closers.push(db.close);
  const database = await openDatabase({ url: db.url, logger });
  closers.push(() => database.close());
  let bus: EventBus;
  let s3: EmbeddedS3 | undefined;
  if (kind === 'real') {
    const vhost = await createTestVhost();
    closers.push(vhost.close);
    bus = createRabbitBus({ url: vhost.url, service: 'assessment', logger, retryDelaysMs: [100, 200] });
    s3 = await startEmbeddedS3({ directory: path.join(dataDir, 's3-server') });
    closers.push(() => s3?.close());
  } else {
    bus = createMemoryBus({ logger, service: 'assessment', retryDelaysMs: [100, 200] });
  }
  closers.push(() => bus.close());
  const published: Published[] = [];
  await bus.subscribe({
    queue: 'test.assessment-published',
    events: ['assessment.version.published.v1'],
    handle: async (msg) => {
      published.push(decodePayload('assessment.version.published.v1', msg.payload));
    },
  });
  await bus.start();
  const service = await startService(assessmentService, {
    config: {
      PORT: 0,
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      ASSESSMENT_SEED: 'false',
      ...(s3 ? { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey } : {}),
      ...options.config,
    },
    logger,
    adapters: { database, bus },
    shared: {
      adminVerifier: createJwtVerifier({
        publicKeys: [{ kid, key: publicKey }],
        issuer: ISSUER,
        audience: AUDIENCE,
      }),
    },
  });
  closers.push(() => service.stop());

  const call = (method: string, urlPath: string, opts: { token?: string; body?: unknown } = {}) =>
    fetch(`${service.url}${urlPath}`, {
      method,
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });

  return {
    service,
    url: service.url,
    database,
    bus,
    published,
    async announceAdmin(adminId, name) {
      await bus.publish([
        {
          id: randomUUID(),
          name: 'auth.admin.created.v1',
          occurredAt: new Date(),
          source: 'auth',
          payload: encodePayload(
            'auth.admin.created.v1',
            create(AdminCreatedSchema, { adminId, name, email: `${adminId}@example.edu` }),
          ),
        },
      ]);
      await eventually(
        async () =>
          (await database.execute(sql`SELECT 1 FROM admin_names WHERE admin_id = ${adminId}`)).length > 0,
        'the admin name to arrive',
      );
    },
    call,
    upload(name, data, token) {
      const form = new FormData();
      // The client's type is ignored by the service; a misleading one proves it.
      form.append('file', new Blob([data], { type: 'image/png' }), name);
      return fetch(`${service.url}/api/assessment/upload-file`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
    },
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}

/** A small valid assessment: two sections, one question of each type. */
export function sampleAssessment(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Readiness check',
    description: 'Are you ready to study online?',
    timeLimit: 20,
    passingScore: 70,
    sections: [
      { id: 1, title: 'Technology', description: 'Your equipment' },
      { id: 2, title: 'Habits', description: 'Your study habits' },
    ],
    questions: [
      {
        id: 'q1',
        type: 'yes_no',
        question: 'Do you own a computer?',
        section: 1,
        points: 1,
        required: true,
        correctAnswer: 'yes',
      },
      {
        id: 'q2',
        type: 'multiple_choice',
        question: 'How often do you study?',
        section: 2,
        points: 2,
        required: true,
        options: [
          { id: 'a', text: 'Daily' },
          { id: 'b', text: 'Never' },
        ],
        correctAnswer: 'a',
      },
      {
        id: 'q3',
        type: 'file_upload',
        question: 'Upload your weekly plan',
        section: 2,
        points: 3,
        required: false,
        fileInstructions: 'A PDF or a text file',
      },
    ],
    ...overrides,
  };
}

/** The first bytes of a real 1×1 PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A Windows executable's first bytes ("MZ" header). */
export const EXE_BYTES = Buffer.concat([
  Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'),
  Buffer.alloc(256, 0),
]);

import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { decodePayload, type EventName } from '@readiness/contracts';
import { createJwtVerifier } from '@readiness/kit/auth';
import { createMemoryBus, createRabbitBus, type EventBus } from '@readiness/kit/bus';
import { openDatabase, type Database } from '@readiness/kit/db';
import { createLogger } from '@readiness/kit/logger';
import { startService, type RunningService } from '@readiness/kit/runtime';
import { createTestDatabase, createTestVhost } from '@readiness/testing';
import { studentService, type StudentConfig, type StudentConfigInput } from '../src';

export const logger = createLogger({ name: 'student-test', level: 'silent' });

const ISSUER = 'readiness-auth';
const AUDIENCE = 'readiness-admin';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const kid = randomUUID();

/** An admin token as auth signs it. */
export function adminToken(adminId: string = randomUUID()): string {
  return jwt.sign({ role: 'admin', sid: randomUUID() }, privateKey, {
    algorithm: 'RS256',
    keyid: kid,
    subject: adminId,
    jwtid: randomUUID(),
    issuer: ISSUER,
    audience: AUDIENCE,
    expiresIn: 600,
  });
}

const WATCHED = [
  'student.student.invited.v1',
  'student.invitation.resent.v1',
  'student.student.deleted.v1',
] as const satisfies EventName[];

export interface SeenEvent {
  name: (typeof WATCHED)[number];
  payload: Record<string, unknown>;
}

export interface Harness {
  service: RunningService<StudentConfig, undefined>;
  url: string;
  database: Database;
  bus: EventBus;
  dataDir: string;
  /** Every student event the bus delivered, decoded. */
  events: SeenEvent[];
  call(method: string, urlPath: string, options?: { token?: string; body?: unknown }): Promise<Response>;
  importCsv(csv: string, options?: { dryRun?: boolean; token?: string }): Promise<Response>;
  close(): Promise<void>;
}

/** The service in-process on port 0 against a fresh database, with a RabbitMQ vhost (`real`) or the memory bus. */
export async function startStudent(
  kind: 'real' | 'embedded',
  options: { config?: Partial<StudentConfigInput> } = {},
): Promise<Harness> {
  const closers: Array<() => Promise<void> | void> = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'student-test-'));
  closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const db = await createTestDatabase();
  closers.push(db.close);
  const database = await openDatabase({ url: db.url, logger });
  closers.push(() => database.close());
  let bus: EventBus;
  if (kind === 'real') {
    const vhost = await createTestVhost();
    closers.push(vhost.close);
    bus = createRabbitBus({ url: vhost.url, service: 'student', logger, retryDelaysMs: [100, 200] });
  } else {
    bus = createMemoryBus({ logger, service: 'student', retryDelaysMs: [100, 200] });
  }
  closers.push(() => bus.close());
  const events: SeenEvent[] = [];
  await bus.subscribe({
    queue: 'test.student-events',
    events: [...WATCHED],
    handle: async (msg) => {
      const name = msg.name as SeenEvent['name'];
      events.push({ name, payload: decodePayload(name, msg.payload) as unknown as Record<string, unknown> });
    },
  });
  await bus.start();
  const service = await startService(studentService, {
    config: {
      PORT: 0,
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: 'https://readiness.example.edu',
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

  const token = adminToken();
  const call = (method: string, urlPath: string, opts: { token?: string; body?: unknown } = {}) =>
    fetch(`${service.url}${urlPath}`, {
      method,
      headers: {
        authorization: `Bearer ${opts.token ?? token}`,
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    });

  return {
    service,
    url: service.url,
    database,
    bus,
    dataDir,
    events,
    call,
    importCsv(csv, opts = {}) {
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'students.csv');
      return fetch(`${service.url}/api/admin/students/import${opts.dryRun ? '?dryRun=true' : ''}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${opts.token ?? token}` },
        body: form,
      });
    },
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}

import { sql } from 'drizzle-orm';
import type { EventPayload } from '@readiness/contracts';
import { createLogger } from '@readiness/kit/logger';
import { eventually, startServiceUnderTest, testAdminToken, type ServiceUnderTest } from '@readiness/testing';
import { assessmentInput, practiceQuestion } from '@readiness/testing/fixtures';
import { assessmentService, type AssessmentConfig, type AssessmentConfigInput } from '../src';

export const logger = createLogger({ name: 'assessment-test', level: 'silent' });

/** An admin token as auth signs it; `forged` signs with a key auth never published. */
export const adminToken = (adminId?: string, options: { forged?: boolean } = {}) =>
  testAdminToken(adminId, options);

type Published = EventPayload<'assessment.version.published.v1'>;

export interface Harness extends ServiceUnderTest<
  AssessmentConfig,
  undefined,
  'assessment.version.published.v1' | 'assessment.question-file.changed.v1'
> {
  /** Every `assessment.version.published.v1` the bus delivered, decoded. */
  readonly published: Published[];
  /** Announces an admin as auth does (`auth.admin.created.v1`), so versions carry the name. */
  announceAdmin(adminId: string, name: string): Promise<void>;
  upload(name: string, data: Buffer, token: string): Promise<Response>;
}

/**
 * The service in-process on port 0, started by the kit's runtime against a fresh PostgreSQL database: with a
 * RabbitMQ vhost and an S3 server it reaches through S3_ENDPOINT (`real`), or with the memory bus and the
 * runtime's own embedded S3 under DATA_DIR (`embedded`). The seed is off unless the config turns it on. Calls
 * carry no admin token unless given one.
 */
export async function startAssessment(
  kind: 'real' | 'embedded',
  options: { config?: Partial<AssessmentConfigInput> } = {},
): Promise<Harness> {
  const h = await startServiceUnderTest(assessmentService, {
    kind,
    config: { ASSESSMENT_SEED: 'false', ...options.config },
    watch: ['assessment.version.published.v1', 'assessment.question-file.changed.v1'],
    s3: true,
  });
  const call = h.call;
  const harness = Object.assign(h, {
    call: (method: string, urlPath: string, opts: Parameters<typeof call>[2] = {}) =>
      call(method, urlPath, { ...opts, token: opts.token ?? null }),
    async announceAdmin(adminId: string, name: string) {
      await h.publish('auth.admin.created.v1', { adminId, name, email: `${adminId}@example.edu` });
      await eventually(
        async () =>
          (await h.database.execute(sql`SELECT 1 FROM admin_names WHERE admin_id = ${adminId}`)).length > 0,
        'the admin name to arrive',
      );
    },
    upload(name: string, data: Buffer, token: string) {
      const form = new FormData();
      // The client's type is ignored by the service; a misleading one proves it.
      form.append('file', new Blob([data], { type: 'image/png' }), name);
      return fetch(`${h.url}/api/assessment/upload-file`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
    },
  });
  return Object.defineProperty(harness, 'published', {
    get: () => h.eventsNamed('assessment.version.published.v1').map((e) => e.payload),
  }) as Harness;
}

/** The fixtures' assessment as an admin saves it; `overrides` may hold any field, invalid ones included. */
export const sampleAssessment = (overrides: Record<string, unknown> = {}) => ({
  ...assessmentInput(),
  ...overrides,
});

/** A multiple-choice practice question, answered p1. */
export const samplePracticeQuestion = practiceQuestion();

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

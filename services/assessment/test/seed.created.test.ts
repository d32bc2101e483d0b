import { QuestionType } from '@readiness/contracts';
import { createMemoryBus, type EventBus } from '@readiness/kit/bus';
import { startService } from '@readiness/kit/runtime';
import { eventually } from '@readiness/testing';
import { assessmentService } from '../src';
import { adminToken, logger, startAssessment, type Harness } from './harness';

jest.setTimeout(90_000);

const token = adminToken();
let h: Harness | undefined;
const buses: EventBus[] = [];
/** Each replica has its own connection to the bus; the database is the one they share. */
const replicaBus = () => {
  const bus = createMemoryBus({ logger, service: 'assessment' });
  buses.push(bus);
  return bus;
};
afterEach(async () => {
  for (const bus of buses.splice(0)) await bus.close();
  await h?.close();
  h = undefined;
});

test('when the service first starts on the embedded defaults, then the sample assessment is the active version, published, its file downloadable', async () => {
  h = await startAssessment('embedded', { config: { ASSESSMENT_SEED: 'true' } });
  const res = await h.call('GET', '/api/assessment', { token });
  expect(res.status).toBe(200);
  const { assessment } = (await res.json()) as {
    assessment: {
      version: number;
      isActive: boolean;
      timeLimit: number;
      passingScore: number;
      sections: unknown[];
      questions: Array<{ type: string; downloadableFile?: { filename: string; originalName: string } }>;
      createdBy: { name: string };
    };
  };
  expect(assessment).toMatchObject({ version: 1, isActive: true, timeLimit: 30, passingScore: 70 });
  expect(assessment.sections).toHaveLength(4);
  expect(assessment.questions.length).toBeGreaterThanOrEqual(12);
  expect(assessment.questions.length).toBeLessThanOrEqual(20);
  expect(new Set(assessment.questions.map((q) => q.type))).toEqual(
    new Set(['yes_no', 'multiple_choice', 'file_upload']),
  );
  const withFile = assessment.questions.filter((q) => q.downloadableFile);
  expect(withFile).toHaveLength(1);
  const download = await fetch(`${h.url}/api/assessment/files/${withFile[0]!.downloadableFile!.filename}`);
  expect(download.status).toBe(200);
  expect(download.headers.get('content-disposition')).toContain('attachment;');
  expect(await download.text()).toContain('Weekly study planner');

  const [event] = await eventually(() => (h!.published.length ? h!.published : false), 'the seed event');
  expect(event).toMatchObject({ version: 1, active: true, passingScore: 70, timeLimitMinutes: 30 });
  expect(event!.questions.some((q) => q.type === QuestionType.FILE_UPLOAD && q.downloadableFile)).toBe(true);

  // A restart finds the version and seeds nothing more.
  const again = await startService(assessmentService, {
    config: {
      PORT: 0,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: h.service.config.DATA_DIR,
      ASSESSMENT_SEED: 'true',
    },
    logger,
    adapters: { database: h.database, bus: replicaBus() },
  });
  await again.stop();
  const list = await h.call('GET', '/api/assessment/versions', { token });
  expect(((await list.json()) as { versions: unknown[] }).versions).toHaveLength(1);
});

test('when two replicas start together on an empty database, then exactly one sample version is created', async () => {
  h = await startAssessment('real');
  const replica = () =>
    startService(assessmentService, {
      config: {
        PORT: 0,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATA_DIR: h!.service.config.DATA_DIR,
        S3_ENDPOINT: h!.service.config.S3_ENDPOINT,
        S3_ACCESS_KEY: h!.service.config.S3_ACCESS_KEY,
        S3_SECRET_KEY: h!.service.config.S3_SECRET_KEY,
        ASSESSMENT_SEED: 'true',
      },
      logger,
      adapters: { database: h!.database, bus: replicaBus() },
    });
  const replicas = await Promise.all([replica(), replica()]);
  await Promise.all(replicas.map((r) => r.stop()));
  const list = await h.call('GET', '/api/assessment/versions', { token });
  expect(
    ((await list.json()) as { versions: Array<{ version: number }> }).versions.map((v) => v.version),
  ).toEqual([1]);
});

test('when ASSESSMENT_SEED is false, then nothing is created and the assessment answers 404 until an admin saves the first version', async () => {
  h = await startAssessment('embedded', { config: { ASSESSMENT_SEED: 'false' } });
  const res = await h.call('GET', '/api/assessment', { token });
  expect(res.status).toBe(404);
  expect(((await res.json()) as { message: string }).message).toBe('No assessment found');
  expect(h.published).toEqual([]);
});

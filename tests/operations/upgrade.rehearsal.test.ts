/*
 * docs/operations.md, "Upgrade and roll back", rehearsed: the report service is upgraded while students submit.
 * The local stack starts with the report service as it was before its newest migration (built from that commit);
 * a third of the way through a class's submits a replica of this version starts beside it on the same database
 * and queues, applying the migration (expand only) while the old one keeps issuing certificates; two thirds of the
 * way the old one gets SIGTERM and stops cleanly. Every submit is answered, every result recorded once, every pass
 * gets one certificate and one certificate mail, and both versions issued some of them.
 */
import { Pool } from 'pg';
import { eventually } from '@readiness/testing';
import type { LocalStack, StackReplica } from '../../deploy/all-in-one/src/local-stack';
import { api } from '../../deploy/all-in-one/test/launcher';
import {
  accepted,
  answerSheet,
  prepareStudents,
  signIn,
  submitAll,
  type Student,
} from '../faults/support/students';
import { startTestStack, type TestStack } from '../support/test-stack';
import { previousVersion, type PreviousVersion } from './support/previous-version';

/** A Redis database of its own (faults 14, traces 13, restore 12). */
const REDIS_DATABASE = 11;
const CLASS = 24;

jest.setTimeout(300_000);

let test: TestStack;
let stack: LocalStack;
let reportDb: Pool;
let previous: PreviousVersion;
let students: Student[];
let upgraded: StackReplica;
const columnsBefore: string[] = [];
const columnsDuring: string[] = [];
let oldExit: number | null | undefined;

/** Every column of the report service's tables, as `table.column`. */
const reportColumns = async () =>
  (
    await reportDb.query<{ name: string }>(
      `SELECT table_name || '.' || column_name AS name FROM information_schema.columns
       WHERE table_schema = 'public' ORDER BY 1`,
    )
  ).rows.map((r) => r.name);

const issuedIn = (output: string) =>
  output.split('\n').filter((l) => l.includes('"certificate issued"')).length;

beforeAll(async () => {
  previous = await previousVersion('report');
  test = await startTestStack('upgrade', REDIS_DATABASE, {
    // Its "certificate issued" lines tell which version issued what.
    serviceEnv: { report: { LOG_LEVEL: 'info' } },
    serviceRoot: { report: previous.root },
  });
  stack = test.stack;
  reportDb = new Pool({ connectionString: stack.service('report').databaseUrl, max: 1 });
  columnsBefore.push(...(await reportColumns()));
  const admin = await signIn(stack.gatewayUrl);
  const sheet = await answerSheet(admin);
  students = await prepareStudents(admin, 'upgrade', CLASS, sheet);

  // The class submits two at a time; the upgrade happens in between, while the other submit is under way.
  await submitAll(stack.gatewayUrl, students, sheet, {
    concurrency: 2,
    onSubmitted: async (done) => {
      if (done === CLASS / 3) {
        upgraded = await stack.replica('report');
        columnsDuring.push(...(await reportColumns()));
      }
      if (done === (2 * CLASS) / 3) {
        oldExit = await stack.kill('report', 'SIGTERM');
      }
    },
  });

  const passes = students.filter((s) => s.passes);
  await eventually(
    () =>
      passes.every((s) => stack.mail.list().some((m) => m.to.includes(s.email) && m.attachments.length > 0)),
    'a certificate mail for every pass',
    120_000,
  );
}, 300_000);

afterAll(async () => {
  await reportDb?.end();
  await test?.stop();
});

it('runs the old version first, then both side by side once the new one applied its expand-only migration', () => {
  // Expand only: the newest migration added columns (whichever it is) and took none away.
  const added = columnsDuring.filter((c) => !columnsBefore.includes(c));
  expect(added.length).toBeGreaterThan(0);
  expect(columnsDuring).toEqual(expect.arrayContaining(columnsBefore));
  // The old version stopped on SIGTERM as the chart's rollout stops it: cleanly, in-flight work finished.
  expect(oldExit).toBe(0);
});

it('loses nothing and doubles nothing across the upgrade', async () => {
  expect(accepted(students)).toHaveLength(CLASS);
  const admin = await signIn(stack.gatewayUrl);
  const results = await api<{ results: unknown[] }>(admin.base, 'GET', '/api/admin/results?limit=100', {
    token: admin.token,
  });
  expect(results.body.results).toHaveLength(CLASS);
  // Late duplicates would arrive after the last first mail: give them a moment.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  for (const s of students) {
    const mails = stack.mail.list().filter((m) => m.to.includes(s.email) && m.attachments.length > 0);
    expect({ email: s.email, certificateMails: mails.length }).toEqual({
      email: s.email,
      certificateMails: s.passes ? 1 : 0,
    });
  }
  const certificates = await reportDb.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM certificates GROUP BY status',
  );
  expect(certificates.rows).toEqual([{ status: 'issued', n: CLASS / 2 }]);
});

it('had both versions issue certificates', () => {
  expect(issuedIn(stack.output('report'))).toBeGreaterThan(0);
  expect(issuedIn(upgraded.output())).toBeGreaterThan(0);
  expect(issuedIn(stack.output('report')) + issuedIn(upgraded.output())).toBe(CLASS / 2);
});

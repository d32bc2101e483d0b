/*
 * The dashboard figures are kept in 16 slots so that concurrent scoring transactions rarely wait for each other.
 * A scoring transaction writes two tables (the result, the student's figures row); when each statement chose its
 * own slot, two transactions could lock two slots in opposite orders and deadlock (seen under the fault suite's
 * bursts, each costing the submission a retry with backoff). One slot per transaction removes the cycle.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import { ALL_RIGHT, startResults, versionEvent, type Harness } from './harness';

jest.setTimeout(60_000);

let h: Harness;
const version = versionEvent();

beforeAll(async () => {
  h = await startResults('embedded', { versions: [version] });
  await eventually(
    async () =>
      (await h.database.execute(sql`SELECT 1 FROM versions WHERE version_id = ${version.versionId}`)).length >
      0,
    'the version copy',
  );
});
afterAll(() => h?.close());

const slots = async () =>
  new Map(
    (
      await h.database.execute<{ slot: number; figures: string }>(
        sql`SELECT slot, concat_ws(',', students, pending_invites, in_progress, results, passed, percentage_sum) AS figures
              FROM figures`,
      )
    ).map((r) => [r.slot, r.figures]),
  );

test('when submissions are scored, then each scoring transaction changes one figures slot only, so two cannot lock slots in opposite orders', async () => {
  const changed: number[] = [];
  for (let i = 0; i < 8; i++) {
    const before = await slots();
    await h.submit({ versionId: version.versionId, studentId: randomUUID(), answers: ALL_RIGHT });
    const after = await slots();
    changed.push([...after].filter(([slot, figures]) => before.get(slot) !== figures).length);
  }
  expect(changed).toEqual(Array(8).fill(1));
});

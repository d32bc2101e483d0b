import { sql } from 'drizzle-orm';
import type { MemoryBus } from '@readiness/kit/bus';
import { eventually } from '@readiness/testing';
import { issuedPass, resultFacts, startReport, type Harness } from './harness';

jest.setTimeout(120_000);

// On the memory bus only: the bus is not the subject here; both buses pass one contract suite (kit/src/bus/test).
describe('a result recorded after its student was erased', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startReport('embedded');
  });
  afterAll(async () => {
    await h?.close();
  });

  const count = async (table: 'results' | 'certificates', studentId: string) =>
    Number(
      (
        await h.database.execute<{ n: string }>(
          sql`SELECT count(*) AS n FROM ${sql.identifier(table)} WHERE student_id = ${studentId}`,
        )
      )[0]!.n,
    );

  test('when a passed result arrives after the erasure (held at the peak), then it is acknowledged and nothing of the student is written, certified or mailed', async () => {
    const gone = resultFacts({ name: 'Gone Student', email: 'gone-report@example.edu' });
    await h.deleteStudent(gone);
    await eventually(
      async () =>
        (await h.database.execute(sql`SELECT 1 FROM erased_students WHERE student_id = ${gone.studentId}`))
          .length === 1,
      'the tombstone',
    );

    await h.publishResult(gone);
    // Another student's pass goes all the way through after it: the issuer has swept past the erased one.
    await issuedPass(h, 'Kept Student', 'kept-report@example.edu', 90);
    await (h.bus as MemoryBus).drain();

    expect(await count('results', gone.studentId)).toBe(0);
    expect(await count('certificates', gone.studentId)).toBe(0);
    expect(h.issued.some((e) => e.studentId === gone.studentId)).toBe(false);
    expect(await h.objects(`certificates/${gone.studentId}/`)).toEqual([]);
    expect(h.mail.list().filter((m) => m.to.includes(gone.email))).toEqual([]);
    expect((h.bus as MemoryBus).deadLetters('report.result-recorded')).toEqual([]);
    const tombstone = await h.database.execute(
      sql`SELECT * FROM erased_students WHERE student_id = ${gone.studentId}`,
    );
    expect(Object.keys(tombstone[0]!).sort()).toEqual(['erased_at', 'student_id']);
  });
});

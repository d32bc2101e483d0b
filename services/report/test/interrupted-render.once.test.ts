import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import { resultFacts, startReport, type Harness } from './harness';

jest.setTimeout(120_000);

describe('a render interrupted by a dead worker', () => {
  let h: Harness;
  const systemBrowsers: string[] = [];

  beforeAll(async () => {
    h = await startReport('real', {
      config: { PDF_BUNDLED_CHROMIUM: 'false', CERTIFICATE_SWEEP_SECONDS: '1' },
      options: { systemBrowsers },
    });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('when the worker holding a certificate died mid-render, then another takes it over after its lease and it is issued once', async () => {
    const facts = resultFacts({ email: 'lease@example.edu' });
    await h.publishResult(facts);
    await eventually(async () => {
      const rows = await h.database.execute(
        sql`SELECT 1 FROM certificates WHERE result_id = ${facts.resultId}`,
      );
      return rows.length === 1;
    }, 'the pending certificate');
    // A replica claimed it, stored its PDF and died before marking it issued (its lease still runs 12 s).
    await h.database.execute(
      sql`UPDATE certificates SET claimed_until = now() + interval '12 seconds', attempts = 1
          WHERE result_id = ${facts.resultId}`,
    );
    systemBrowsers.push('/usr/bin/chromium');
    await eventually(() => h.report.exports.renderer.status().available, 'a browser', 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(h.mail.list().filter((m) => m.to.includes('lease@example.edu'))).toHaveLength(0);

    await h.mail.waitFor((m) => m.to.includes('lease@example.edu'), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(h.mail.list().filter((m) => m.to.includes('lease@example.edu'))).toHaveLength(1);
    expect(h.issued.filter((e) => e.resultId === facts.resultId)).toHaveLength(1);
    expect(await h.objects(`certificates/${facts.studentId}/`)).toHaveLength(1);
  });
});

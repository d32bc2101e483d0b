import { startService } from '@readiness/kit/runtime';
import { eventually } from '@readiness/testing';
import { reportService } from '../src';
import { logger, resultFacts, startReport, type Harness } from './harness';

jest.setTimeout(120_000);

describe('without a browser', () => {
  let h: Harness;
  const systemBrowsers: string[] = [];

  beforeAll(async () => {
    h = await startReport('embedded', {
      config: { PDF_BUNDLED_CHROMIUM: 'false' },
      options: { systemBrowsers },
    });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('when no browser can start, then PDF calls answer 503 and a pass waits; once one starts, its certificate is mailed', async () => {
    expect(h.report.exports.renderer.status()).toMatchObject({ available: false });
    const facts = resultFacts({ email: 'waiting@example.edu' });
    await h.publishResult(facts);
    const res = await eventually(async () => {
      const answer = await h.get(`/api/admin/results/${facts.resultId}/pdf`);
      return answer.status !== 404 && answer;
    }, 'the result copy');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      code: 'pdf_unavailable',
      message: 'PDF generation is temporarily unavailable: no browser is running. Try again shortly.',
    });
    expect(h.mail.list()).toHaveLength(0);
    // Prometheus sees the backlog (the alert ReadinessCertificateBacklog reads these).
    const metrics = async () => (await fetch(`${h.report.internalUrl}/metrics`)).text();
    const waiting = await metrics();
    expect(waiting).toMatch(/^certificates_pending\{service="report"\} 1$/m);
    expect(
      Number(/^certificates_oldest_pending_seconds\{service="report"\} (\S+)$/m.exec(waiting)?.[1]),
    ).toBeGreaterThanOrEqual(0);

    // A browser appears (installed, or back from a crash): the relaunch finds it and the pending pass is issued.
    systemBrowsers.push('/usr/bin/chromium');
    const mail = await h.mail.waitFor((m) => m.to.includes('waiting@example.edu'), 60_000);
    expect(mail.attachments).toHaveLength(1);
    await eventually(async () => (await h.get(`/api/admin/results/${facts.resultId}/pdf`)).status === 200);
    expect(await metrics()).toMatch(/^certificates_pending\{service="report"\} 0$/m);
  });

  it('when PUPPETEER_EXECUTABLE_PATH names no usable browser, then the service refuses to start and says why', async () => {
    await expect(
      startService(reportService, {
        config: {
          PORT: 0,
          HOST: '127.0.0.1',
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          PUPPETEER_EXECUTABLE_PATH: '/nonexistent/chromium',
        },
        logger,
        adapters: { database: h.database, bus: h.bus },
      }),
    ).rejects.toThrow('PUPPETEER_EXECUTABLE_PATH=/nonexistent/chromium does not run');
  });
});

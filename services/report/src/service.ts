import path from 'node:path';
import { loadSigningKeys } from '@readiness/kit/auth';
import { answerStudentExport, defineService, every } from '@readiness/kit/runtime';
import { configSchema } from './config';
import { createLinkSigner } from './domain/links';
import { createReports } from './domain/reports';
import { loadArabicFontFaces, loadFontFaces } from './domain/templates/fonts';
import { reportApi } from './entry-points/http/api';
import { reportConsumers } from './entry-points/messaging/consumers';
import { loadLinkKey } from './link-key';
import { certificateBacklogMetrics } from './metrics';
import { chooseBrowser, SYSTEM_BROWSERS } from './rendering/browser-choice';
import { createCertificatePress } from './rendering/certificate-press';
import { createRenderer, type Renderer } from './rendering/renderer';

/** What an in-process caller may set: the system browsers looked for (tests use none to reach the fallback). */
export interface ReportOptions {
  systemBrowsers?: readonly string[];
}

/**
 * The report service: PDF reports and certificates rendered with one Chromium, certificates stored in object
 * storage and announced once per pass (report.certificate.issued.v2, naming the stored PDF), and public verification of their codes.
 */
export const reportService = defineService({
  name: 'report',
  config: configSchema,
  migrations: path.join(__dirname, 'data-access/migrations'),
  openapi: reportApi.openapi,
  async setup(
    { config, logger, registry, database, storage, handleOnce },
    options: ReportOptions | undefined,
  ) {
    const fontFaces = loadFontFaces();
    const renderer: Renderer = createRenderer({
      choose: () =>
        chooseBrowser({
          executablePath: config.PUPPETEER_EXECUTABLE_PATH,
          systemBrowsers: options?.systemBrowsers ?? SYSTEM_BROWSERS,
          bundled: config.PDF_BUNDLED_CHROMIUM,
          bundledDir: path.resolve(config.DATA_DIR, 'report', 'chromium'),
          sandbox: config.PDF_CHROMIUM_SANDBOX,
          logger,
        }),
      fontFaces,
      poolSize: config.PDF_POOL_SIZE,
      timeoutMs: config.PDF_RENDER_TIMEOUT_MS,
      pageRenders: config.PDF_PAGE_RENDERS,
      idleMs: config.PDF_BROWSER_IDLE_SECONDS * 1000,
      logger,
    });
    const arabicFontFaces = loadArabicFontFaces();
    const credentialKeys = await loadSigningKeys({
      privateKeyPem: config.CREDENTIAL_PRIVATE_KEY,
      previousPublicKeysPem: config.CREDENTIAL_PREVIOUS_PUBLIC_KEYS,
      dataDir: config.DATA_DIR,
      file: path.join('report', 'credential-key.pem'),
      settings: {
        privateKey: 'CREDENTIAL_PRIVATE_KEY',
        previousPublicKeys: 'CREDENTIAL_PREVIOUS_PUBLIC_KEYS',
      },
      logger,
    });
    const certificates = createCertificatePress({ renderer, fontFaces, arabicFontFaces, logger });
    const reports = createReports({
      database,
      storage,
      renderer,
      certificates,
      fontFaces,
      arabicFontFaces,
      links: createLinkSigner(loadLinkKey(config, logger), config.PUBLIC_ORIGIN),
      credentials: { keys: credentialKeys, origin: config.PUBLIC_ORIGIN.replace(/\/+$/, '') },
      logger,
      handleOnce,
      providerName: config.PROVIDER_NAME,
      signatory: config.CERTIFICATE_SIGNATORY,
      linkTtlHours: config.CERTIFICATE_LINK_TTL_HOURS,
      renderLeaseSeconds: Math.ceil(config.PDF_RENDER_TIMEOUT_MS / 1000) * 2 + 10,
      concurrency: config.PDF_POOL_SIZE,
    });
    // Certificates waiting for a browser (none yet, a crash, a restart mid-render) are issued once one runs.
    renderer.onAvailable(() => void reports.issuePending());
    await renderer.start();
    certificateBacklogMetrics(registry, reports.backlog);
    return {
      routes: reportApi.routes(reports),
      subscriptions: [
        ...reportConsumers(reports),
        answerStudentExport('report', { handleOnce }, (tx, student) =>
          reports.studentExportFiles(tx, student.studentId),
        ),
      ],
      jobs: [
        every('certificate-sweep', config.CERTIFICATE_SWEEP_SECONDS * 1000, () => reports.issuePending()),
      ],
      exports: { renderer, certificates },
      async stop() {
        await reports.settled();
        await renderer.close();
      },
    };
  },
});

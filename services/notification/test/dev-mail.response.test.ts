import express from 'express';
import { startMailCatcher } from '@readiness/dev-servers';
import { listen } from '@readiness/kit/http';
import { createMailer } from '@readiness/kit/mail';
import { devMailRoutes } from '../src';
import { logger, startNotification } from './harness';

describe('caught-mail pages', () => {
  test('when mounted with a catcher, then /dev/mail lists mail as JSON and /dev/mail/view shows it escaped', async () => {
    const catcher = await startMailCatcher();
    const mailer = createMailer({
      smtpUrl: catcher.url,
      from: 'Readiness <no-reply@readiness.test>',
      logger,
    });
    await mailer.send({
      to: 'grace@example.edu',
      subject: 'Hello <script>',
      text: 'plain body',
      html: '<p>html body</p>',
      attachments: [
        { filename: 'certificate.pdf', content: Buffer.from('%PDF-1.4'), contentType: 'application/pdf' },
      ],
    });
    const app = express();
    app.use(devMailRoutes(catcher));
    const server = await listen(app, 0, '127.0.0.1');
    try {
      const list = (await (await fetch(`${server.url}/dev/mail`)).json()) as Array<Record<string, unknown>>;
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        to: ['grace@example.edu'],
        subject: 'Hello <script>',
        text: expect.stringContaining('plain body'),
        html: expect.stringContaining('html body'),
        attachments: ['certificate.pdf'],
        attachmentDetails: [{ filename: 'certificate.pdf', contentType: 'application/pdf', size: 8 }],
      });
      expect(typeof list[0]!.date).toBe('string');
      const page = await fetch(`${server.url}/dev/mail/view`);
      expect(page.headers.get('content-type')).toContain('text/html');
      const html = await page.text();
      expect(html).toContain('Hello &lt;script&gt;');
      expect(html).not.toContain('<script>');
    } finally {
      await server.close();
      mailer.close();
      await catcher.close();
    }
  });

  test('when the service runs on its own, then it has no /dev/mail routes', async () => {
    const h = await startNotification('embedded');
    try {
      expect((await fetch(`${h.service.url}/dev/mail`)).status).toBe(404);
      expect((await fetch(`${h.service.url}/dev/mail/view`)).status).toBe(404);
      expect((await fetch(`${h.service.url}/readyz`)).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});

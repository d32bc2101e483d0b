import { createLogger } from '@readiness/kit/logger';
import { createMailer } from '@readiness/kit/mail';
import { startMailCatcher } from './mail-catcher';

const logger = createLogger({ name: 'mail-catcher-test', level: 'silent' });
const FROM = 'Readiness <no-reply@readiness.test>';

describe('mail catcher', () => {
  test('when more mails arrive than it keeps, then it lists the newest first and drops the oldest', async () => {
    const catcher = await startMailCatcher({ capacity: 3 });
    const mailer = createMailer({ smtpUrl: catcher.url, from: FROM, logger, maxConnections: 1 });
    try {
      for (let i = 1; i <= 5; i++) {
        await mailer.send({ to: 'x@example.edu', subject: `mail ${i}`, text: 'hi' });
      }

      expect(catcher.list().map((m) => m.subject)).toEqual(['mail 5', 'mail 4', 'mail 3']);

      catcher.clear();
      expect(catcher.list()).toEqual([]);
    } finally {
      mailer.close();
      await catcher.close();
    }
  });

  test('when no matching mail arrives in time, then waitFor rejects', async () => {
    const catcher = await startMailCatcher();
    try {
      await expect(catcher.waitFor((m) => m.subject === 'never', 200)).rejects.toThrow(/within 200 ms/);
    } finally {
      await catcher.close();
    }
  });
});

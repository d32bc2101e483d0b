import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createLogger } from '../logger';
import { startMailCatcher, type CaughtMail } from '@readiness/dev-servers';
import { createMailer, MailDeliveryError, type Mailer } from './index';

const logger = createLogger({ name: 'mail-test', level: 'silent' });
const FROM = 'Readiness <no-reply@readiness.test>';

interface Receiver {
  smtpUrl: string;
  waitFor(predicate: (mail: CaughtMail) => boolean): Promise<CaughtMail>;
  close(): Promise<void>;
}

/**
 * What every SMTP endpoint the mailer talks to must deliver. There is no SMTP relay on this
 * machine, so the receiving side is the in-process catcher; another receiver plugs in here.
 */
function mailDeliveryContract(name: string, startReceiver: () => Promise<Receiver>) {
  describe(`mail delivery contract (${name})`, () => {
    let receiver: Receiver;
    let mailer: Mailer;

    beforeAll(async () => {
      receiver = await startReceiver();
      mailer = createMailer({ smtpUrl: receiver.smtpUrl, from: FROM, logger });
    });

    afterAll(async () => {
      mailer.close();
      await receiver.close();
    });

    test('when a mail with HTML and a PDF attachment is sent, then it arrives whole', async () => {
      const subject = `Your certificate ${randomUUID()}`;
      const pdf = randomBytes(12_345);

      const { messageId } = await mailer.send({
        to: 'student@example.edu',
        subject,
        text: 'Congratulations, you passed.',
        html: '<p>Congratulations, <strong>you passed</strong>.</p>',
        attachments: [{ filename: 'certificate.pdf', content: pdf, contentType: 'application/pdf' }],
      });

      expect(messageId).toMatch(/^<.+>$/);
      const mail = await receiver.waitFor((m) => m.subject === subject);
      expect(mail.to).toEqual(['student@example.edu']);
      expect(mail.from).toContain('no-reply@readiness.test');
      expect(mail.text.trim()).toBe('Congratulations, you passed.');
      expect(mail.html).toContain('<strong>you passed</strong>');
      expect(mail.attachments).toEqual([
        {
          filename: 'certificate.pdf',
          contentType: 'application/pdf',
          size: 12_345,
          sha256: createHash('sha256').update(pdf).digest('hex'),
        },
      ]);
    });

    test('when a mail goes to several recipients with a non-ASCII subject, then all of them and the subject arrive', async () => {
      const subject = `Évaluation de préparation – ${randomUUID()}`;

      await mailer.send({ to: ['a@example.edu', 'b@example.edu'], subject, text: 'Bonjour' });

      const mail = await receiver.waitFor((m) => m.subject === subject);
      expect(mail.to).toEqual(['a@example.edu', 'b@example.edu']);
      expect(mail.html).toBeNull();
    });

    test('when several mails are sent at once, then every one arrives', async () => {
      const batch = randomUUID();
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          mailer.send({ to: `s${i}@example.edu`, subject: `${batch} #${i}`, text: 'hi' }),
        ),
      );

      for (let i = 0; i < 10; i++) {
        await expect(receiver.waitFor((m) => m.subject === `${batch} #${i}`)).resolves.toBeDefined();
      }
    });

    test('when the server is checked, then verify is true', async () => {
      expect(await mailer.verify()).toBe(true);
    });
  });
}

mailDeliveryContract('embedded mail catcher', async () => {
  const catcher = await startMailCatcher();
  return { smtpUrl: catcher.url, waitFor: (p) => catcher.waitFor(p, 5000), close: () => catcher.close() };
});

/** An SMTP server that answers RCPT TO with the given reply, as a real relay does for bad mailboxes. */
async function startRejectingServer(responseCode: number, message: string) {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    closeTimeout: 500,
    onRcptTo(_address, _session, callback) {
      callback(Object.assign(new Error(message), { responseCode }));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('mail delivery failures', () => {
  const message = { to: 'student@example.edu', subject: 'Invitation', text: 'hello' };

  test('when the server refuses the mailbox with 550, then the error is permanent', async () => {
    const server = await startRejectingServer(550, 'No such user');
    const mailer = createMailer({ smtpUrl: server.url, from: FROM, logger });
    try {
      const error = await mailer.send(message).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect(error).toMatchObject({ permanent: true, responseCode: 550, code: 'mail_rejected' });
    } finally {
      mailer.close();
      await server.close();
    }
  });

  test('when the server defers the mailbox with 451, then the error is transient', async () => {
    const server = await startRejectingServer(451, 'Try again later');
    const mailer = createMailer({ smtpUrl: server.url, from: FROM, logger });
    try {
      const error = await mailer.send(message).catch((e: unknown) => e);
      expect(error).toMatchObject({ permanent: false, responseCode: 451, code: 'mail_unavailable' });
    } finally {
      mailer.close();
      await server.close();
    }
  });

  test('when nothing listens on the SMTP port, then sending fails as transient and verify is false', async () => {
    const catcher = await startMailCatcher();
    await catcher.close();
    const mailer = createMailer({ smtpUrl: catcher.url, from: FROM, logger });
    try {
      const error = await mailer.send(message).catch((e: unknown) => e);
      expect(error).toMatchObject({ permanent: false, code: 'mail_unavailable' });
      expect(await mailer.verify()).toBe(false);
    } finally {
      mailer.close();
    }
  });

  test('when a message is larger than the server accepts, then the error is permanent', async () => {
    const catcher = await startMailCatcher({ maxMessageBytes: 10_000 });
    const mailer = createMailer({ smtpUrl: catcher.url, from: FROM, logger });
    try {
      const error = await mailer
        .send({
          ...message,
          attachments: [
            { filename: 'big.bin', content: randomBytes(50_000), contentType: 'application/octet-stream' },
          ],
        })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ permanent: true, responseCode: 552 });
      expect(catcher.list()).toEqual([]);
    } finally {
      mailer.close();
      await catcher.close();
    }
  });
});

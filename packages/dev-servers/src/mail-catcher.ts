import { createHash, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { AddressObject } from 'mailparser';
import type { Logger } from 'pino';

export interface CaughtAttachment {
  filename: string;
  contentType: string;
  size: number;
  /** Hex SHA-256 of the content, to tell which file a mail carried. */
  sha256: string;
}

export interface CaughtMail {
  id: string;
  /** Envelope recipients: everyone the message was delivered to, Bcc included. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string | null;
  date: Date;
  attachments: CaughtAttachment[];
}

export interface MailCatcher {
  /** `smtp://127.0.0.1:<port>`, ready for `createMailer({ smtpUrl })`. */
  url: string;
  port: number;
  /** Newest first. */
  list(): CaughtMail[];
  clear(): void;
  /** Resolves with the first caught mail (already caught or arriving later) that matches. */
  waitFor(predicate: (mail: CaughtMail) => boolean, timeoutMs?: number): Promise<CaughtMail>;
  close(): Promise<void>;
}

export interface MailCatcherOptions {
  port?: number;
  /** How many messages are kept; the oldest are dropped first. */
  capacity?: number;
  /** Largest accepted message; bigger ones are refused with 552 like a real server would. */
  maxMessageBytes?: number;
  logger?: Logger;
}

function addressText(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return '';
  return (Array.isArray(value) ? value : [value]).map((a) => a.text).join(', ');
}

/**
 * The embedded default for mail: an SMTP server in this process on loopback that accepts every
 * message (no login, no TLS) and keeps the latest ones in memory for the `/dev/mail` page and tests.
 */
export async function startMailCatcher(options: MailCatcherOptions = {}): Promise<MailCatcher> {
  const capacity = options.capacity ?? 500;
  const maxMessageBytes = options.maxMessageBytes ?? 25 * 1024 * 1024;
  const logger = options.logger;
  const mails: CaughtMail[] = [];
  const arrivals = new EventEmitter();
  arrivals.setMaxListeners(0);
  // Loaded when a catcher is started, not with the package (as the embedded S3 server).
  const [{ simpleParser }, { SMTPServer }] = await Promise.all([import('mailparser'), import('smtp-server')]);

  const server = new SMTPServer({
    name: 'mail-catcher.local',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: maxMessageBytes,
    rejectOversized: true,
    logger: false,
    // Pooled clients keep connections open; do not hold shutdown for long on them.
    closeTimeout: 1000,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          if (stream.sizeExceeded) return callback();
          const mail: CaughtMail = {
            id: randomUUID(),
            to: session.envelope.rcptTo.map((r) => r.address),
            from:
              addressText(parsed.from) ||
              (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : null,
            date: parsed.date ?? new Date(),
            attachments: parsed.attachments.map((a) => ({
              filename: a.filename ?? 'attachment',
              contentType: a.contentType,
              size: a.content.length,
              sha256: createHash('sha256').update(a.content).digest('hex'),
            })),
          };
          mails.unshift(mail);
          if (mails.length > capacity) mails.length = capacity;
          logger?.info({ mailId: mail.id, subject: mail.subject, recipients: mail.to.length }, 'mail caught');
          arrivals.emit('mail', mail);
          callback();
        })
        .catch((err: Error) => {
          logger?.warn({ err }, 'caught mail could not be parsed');
          callback(err);
        });
    },
  });
  server.on('error', (err) => logger?.warn({ err }, 'mail catcher error'));

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    list: () => [...mails],
    clear: () => {
      mails.length = 0;
    },
    waitFor(predicate, timeoutMs = 5000) {
      const found = mails.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<CaughtMail>((resolve, reject) => {
        const onMail = (mail: CaughtMail) => {
          if (!predicate(mail)) return;
          clearTimeout(timer);
          arrivals.off('mail', onMail);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          arrivals.off('mail', onMail);
          reject(new Error(`No matching mail arrived within ${timeoutMs} ms`));
        }, timeoutMs);
        arrivals.on('mail', onMail);
      });
    },
    close() {
      closing ??= new Promise<void>((resolve) => server.close(() => resolve()));
      return closing;
    },
  };
}

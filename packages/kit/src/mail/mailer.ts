import { createTransport } from 'nodemailer';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import { SpanKind, traced } from '../tracing';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message; throws a `MailDeliveryError` otherwise. */
  send(message: MailMessage): Promise<{ messageId: string; accepted: string[]; rejected: string[] }>;
  /** True when the SMTP server answers and accepts this client; never throws (readiness probes). */
  verify(): Promise<boolean>;
  close(): void;
}

export interface MailerOptions {
  /** `smtp://user:pass@host:port` or `smtps://…` (implicit TLS). */
  smtpUrl: string;
  /** Envelope and header sender, e.g. `Readiness <no-reply@example.edu>`. */
  from: string;
  logger: Logger;
  /** Simultaneous SMTP connections in the pool. */
  maxConnections?: number;
}

/**
 * A send that failed. `permanent` says whether retrying the same message can ever succeed:
 * a 5xx reply (unknown mailbox, message refused) or a message that cannot be built is permanent;
 * a 4xx reply, a refused or dropped connection, a timeout or a failed login is transient, since it
 * goes away when the server or its configuration recovers.
 */
export class MailDeliveryError extends AppError {
  constructor(
    readonly permanent: boolean,
    readonly smtpCode: string | undefined,
    readonly responseCode: number | undefined,
    cause: unknown,
  ) {
    super(
      permanent ? 'mail_rejected' : 'mail_unavailable',
      permanent ? 'The mail server refused the message' : 'The mail server is temporarily unavailable',
      permanent ? 502 : 503,
      { cause, details: { smtpCode, responseCode } },
    );
    this.name = 'MailDeliveryError';
  }
}

interface SmtpFailure {
  code?: string;
  responseCode?: number;
}

// Failures that no retry of the same message fixes: the message or its envelope is unusable.
const PERMANENT_CODES = new Set(['EMESSAGE', 'EENVELOPE', 'EMAXRECIPIENTS', 'ECONFIG']);

function classifySmtpError(err: unknown): MailDeliveryError {
  const { code, responseCode } = (err ?? {}) as SmtpFailure;
  let permanent: boolean;
  if (typeof responseCode === 'number' && responseCode >= 400) {
    // RFC 5321: 5yz is a permanent negative reply, 4yz a transient one. 503 (bad sequence of
    // commands) is about the session, not the message. A rejected login is the operator's to fix.
    permanent = responseCode >= 500 && responseCode !== 503 && code !== 'EAUTH';
  } else {
    permanent = code !== undefined && PERMANENT_CODES.has(code);
  }
  return new MailDeliveryError(permanent, code, responseCode, err);
}

export function createMailer(options: MailerOptions): Mailer {
  const { logger } = options;
  const transport = createTransport({
    url: options.smtpUrl,
    pool: true,
    maxConnections: options.maxConnections ?? 3,
    maxMessages: 100,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    dnsTimeout: 10_000,
  });

  async function sendNow(message: MailMessage) {
    try {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        attachments: message.attachments?.map((a) => ({
          filename: a.filename,
          content: a.content,
          contentType: a.contentType,
        })),
      });
      const addresses = (list: unknown[] | undefined) =>
        (list ?? []).map((entry) =>
          typeof entry === 'string' ? entry : (entry as { address: string }).address,
        );
      return {
        messageId: info.messageId,
        accepted: addresses(info.accepted),
        rejected: addresses(info.rejected),
      };
    } catch (err) {
      const failure = classifySmtpError(err);
      logger.warn(
        {
          err,
          permanent: failure.permanent,
          smtpCode: failure.smtpCode,
          responseCode: failure.responseCode,
        },
        'mail was not sent',
      );
      throw failure;
    }
  }

  const smtpHost = URL.canParse(options.smtpUrl) ? new URL(options.smtpUrl).hostname : '';

  return {
    // Traced, the SMTP conversation is a span of the handler that sends the mail.
    send: (message) =>
      traced('smtp send', { kind: SpanKind.CLIENT, attributes: { 'server.address': smtpHost } }, () =>
        sendNow(message),
      ),

    async verify() {
      try {
        return await transport.verify();
      } catch (err) {
        logger.warn({ err }, 'mail server is not reachable');
        return false;
      }
    },

    close() {
      transport.close();
    },
  };
}

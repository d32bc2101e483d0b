export {
  createMailer,
  classifySmtpError,
  MailDeliveryError,
  type Mailer,
  type MailerOptions,
  type MailMessage,
  type MailAttachment,
} from './mailer';
export {
  startMailCatcher,
  type MailCatcher,
  type MailCatcherOptions,
  type CaughtMail,
  type CaughtAttachment,
} from './mail-catcher';

export {
  createMailer,
  MailDeliveryError,
  type Mailer,
  type MailerOptions,
  type MailMessage,
  type MailAttachment,
} from './mailer';

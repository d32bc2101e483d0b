export { notificationService } from './service';
export { configSchema, type NotificationConfig, type NotificationConfigInput } from './config';
export { migrationsDir } from './data-access/migrations-dir';
export { devMailRoutes } from './entry-points/http/dev-mail';
export { notificationApi } from './entry-points/http/api';

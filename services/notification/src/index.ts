export { notificationService } from './service';
export { configSchema, type NotificationConfig, type NotificationConfigInput } from './config';
export { devMailRoutes } from './entry-points/http/dev-mail';
export { notificationApi } from './entry-points/http/api';
export { ADMIN_PASSWORD_RESET_QUEUE } from './entry-points/messaging/admin-password-reset';

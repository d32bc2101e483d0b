export { notificationService } from './service';
export { type NotificationConfig } from './config';
export { devMailRoutes } from './entry-points/http/dev-mail';

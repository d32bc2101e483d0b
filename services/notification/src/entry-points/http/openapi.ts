import { describeService } from '@readiness/kit/openapi';

/**
 * The notification service's API. It works on events and serves no API route yet; its document is served all
 * the same, so the gateway's merged documentation picks up the routes as soon as the service adds them here.
 */
export const openApi = describeService({ service: 'notification', operations: {} });

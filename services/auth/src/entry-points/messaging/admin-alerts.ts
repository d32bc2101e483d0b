import type { Logger } from '@readiness/kit/logger';
import { on, type EventSubscription, type ServiceContext } from '@readiness/kit/runtime';
import { alertSuperAdmins } from '../../domain/admin-alerts';

const WEBHOOK_ENDPOINT_DISABLED = 'auth.alert-webhook-endpoint-disabled';

/**
 * The other services' events that every active super admin must hear of, each turned into one mail request per
 * super admin, once per event (the requests are written with the event's processed mark).
 */
export const adminAlertConsumers = (deps: {
  handleOnce: ServiceContext<unknown>['handleOnce'];
  logger: Logger;
}): EventSubscription[] => [
  on(WEBHOOK_ENDPOINT_DISABLED, {
    async handle(e, meta) {
      const { result } = await deps.handleOnce(WEBHOOK_ENDPOINT_DISABLED, meta.id, (tx) =>
        alertSuperAdmins(tx, meta.id, { case: 'webhookEndpointDisabled', value: e }),
      );
      if (result === 0) {
        deps.logger.warn(
          { endpointId: e.endpointId },
          'a webhook endpoint was disabled and no super admin is active to tell',
        );
      }
    },
  }),
];

import { describeService } from '@readiness/kit/openapi';
import { z } from 'zod';
import { deliveriesQuery, deliveryOut } from './deliveries';

const TAG = 'Notifications';

/** The notification service's API: the delivery state of invitation mails. */
export const openApi = describeService({
  service: 'notification',
  tags: [{ name: TAG, description: 'Mail deliveries' }],
  operations: {
    'GET /api/admin/notifications/deliveries': {
      summary:
        "The latest invitation mail of each student: queued, sent, or failed with the SMTP server's reason",
      tags: [TAG],
      admin: true,
      query: deliveriesQuery,
      responses: {
        200: {
          description: 'One entry per student ever mailed',
          body: z.object({ deliveries: z.array(deliveryOut) }),
        },
        400: 'studentIds missing or not ids',
        401: 'Not signed in',
      },
    },
  },
});

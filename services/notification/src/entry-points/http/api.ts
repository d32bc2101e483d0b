import { operationsFor, serviceApi } from '@readiness/kit/openapi';
import { z } from 'zod';
import type { DeliveriesRepository } from '../../data-access/deliveries-repository';

const TAG = 'Notifications';

const deliveriesQuery = z.object({
  studentIds: z
    .string({ error: 'studentIds is required' })
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.uuid({ error: 'studentIds must be student ids separated by commas' }))
        .max(200, 'Ask for at most 200 students at a time'),
    ),
});

const deliveryOut = z.object({
  studentId: z.string(),
  /** Which mail: the invitation (first or resent) or a reminder. */
  kind: z.enum(['invitation', 'reminder']),
  status: z.enum(['queued', 'sent', 'failed']),
  reason: z.string().nullable(),
  at: z.string(),
});

const operation = operationsFor<DeliveriesRepository>();

/** The notification service's API, each operation declared once: the delivery state of invitation mails. */
export const notificationApi = serviceApi<DeliveriesRepository>({
  service: 'notification',
  tags: [{ name: TAG, description: 'Mail deliveries' }],
  operations: {
    'GET /api/admin/notifications/deliveries': operation({
      summary:
        "The latest invitation mail (or reminder) of each student: queued, sent, or failed with the SMTP server's reason",
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
      // The Student Management table asks for the students on its page, again while one is still queued.
      async handle({ query, res }, repo) {
        const found = await repo.latestForStudents(query.studentIds);
        res.setHeader('Cache-Control', 'no-store');
        return { deliveries: found.map((d) => ({ ...d, at: d.at.toISOString() })) };
      },
    }),
  },
});

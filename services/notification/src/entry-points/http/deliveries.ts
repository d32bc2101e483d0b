import { parse } from '@readiness/kit/http';
import type { Express } from 'express';
import { z } from 'zod';
import type { DeliveriesRepository } from '../../data-access/deliveries-repository';

export const DELIVERIES_PATH = '/api/admin/notifications/deliveries';

export const deliveriesQuery = z.object({
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

export const deliveryOut = z.object({
  studentId: z.string(),
  status: z.enum(['queued', 'sent', 'failed']),
  reason: z.string().nullable(),
  at: z.string(),
});

/** The latest invitation delivery of the students on a page of the Student Management table (admin only). */
export const deliveryRoutes = (repo: DeliveriesRepository) => (app: Express) => {
  app.get(DELIVERIES_PATH, async (req, res) => {
    const { studentIds } = parse(deliveriesQuery, req.query);
    const found = await repo.latestForStudents(studentIds);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ deliveries: found.map((d) => ({ ...d, at: d.at.toISOString() })) });
  });
};

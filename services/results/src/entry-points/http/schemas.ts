import { textField } from '@readiness/kit/http';
import { z } from 'zod';
import { RESULT_SORTS } from '../../domain/result';

export const PAGE_SIZES = ['10', '20', '50', '100'] as const;

/** The filter the list and the export share; every bad value is a 400 naming the parameter. */
export const filterQuery = z.object({
  search: textField({ label: 'Search', requiredMessage: 'Search must be one text' })
    .trim()
    .max(200, 'Search must be at most 200 characters')
    .optional()
    .transform((s) => s || undefined),
  status: z
    .enum(['all', 'passed', 'failed'], { error: 'status must be all, passed or failed' })
    .optional()
    .default('all'),
  sortBy: z
    .enum(RESULT_SORTS, { error: `sortBy must be one of ${RESULT_SORTS.join(', ')}` })
    .optional()
    .default('completedAt'),
  sortOrder: z.enum(['asc', 'desc'], { error: 'sortOrder must be asc or desc' }).optional().default('desc'),
});

export const listQuery = filterQuery.extend({
  page: z.coerce
    .number({ error: 'page must be a whole number of at least 1' })
    .int('page must be a whole number of at least 1')
    .min(1, 'page must be a whole number of at least 1')
    .max(1_000_000, 'page must be at most 1000000')
    .optional()
    .default(1),
  limit: z
    .enum(PAGE_SIZES, { error: 'limit must be 10, 20, 50 or 100' })
    .optional()
    .default('20')
    .transform(Number),
});

export const analysisQuery = z.object({
  version: z.coerce
    .number({ error: 'version must be a whole number of at least 1' })
    .int('version must be a whole number of at least 1')
    .min(1, 'version must be a whole number of at least 1')
    .optional(),
});

/** Any id: one that is not a result's answers 404 like an unknown one. */
export const idParams = z.object({ id: z.string() });

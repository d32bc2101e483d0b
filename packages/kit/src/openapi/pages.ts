import { z } from 'zod';

/** Where a page of a list stands among the others, as every paged list answers it beside its items. */
export const paginationSchema = z.object({
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  totalResults: z.number().int(),
  hasNext: z.boolean(),
  hasPrev: z.boolean(),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** The pagination of page `page` of `limit` items out of `total`: one page at least, even of nothing. */
export function pagination(page: number, limit: number, total: number): Pagination {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return {
    currentPage: page,
    totalPages,
    totalResults: total,
    hasNext: page < totalPages,
    hasPrev: page > 1,
  };
}

/**
 * The answer of a paged list: its items under the list's own name, the pagination after them, then what else the
 * list tells (its figures, the server clock).
 */
export const listPage = <I extends z.ZodRawShape, M extends z.ZodRawShape = Record<never, never>>(
  items: I,
  more?: M,
) => z.object({ ...items, pagination: paginationSchema, ...(more as M) });

/**
 * A fake's page of a server-paged list, as the services answer one: `page` and `limit` from the query (the
 * service's default limit when absent), the rows of that page and the pagination block.
 */
export function onePage<Row>(rows: Row[], params: URLSearchParams, defaultLimit: number) {
  const page = Number(params.get('page') ?? 1);
  const limit = Number(params.get('limit') ?? defaultLimit);
  const totalPages = Math.max(1, Math.ceil(rows.length / limit));
  return {
    rows: rows.slice((page - 1) * limit, page * limit),
    pagination: {
      currentPage: page,
      totalPages,
      totalResults: rows.length,
      hasNext: page < totalPages,
      hasPrev: page > 1,
    },
  };
}

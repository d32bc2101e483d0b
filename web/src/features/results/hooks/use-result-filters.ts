import { useCallback, useMemo, useRef } from 'react';
import { useLocation, useNavigation, useSearchParams } from 'react-router-dom';
import {
  DEFAULT_PAGE_SIZE,
  PAGE_SIZES,
  SORT_OPTIONS,
  STATUS_OPTIONS,
  type ResultListQuery,
} from '../api/results-api';

const DEFAULTS: ResultListQuery = {
  page: 1,
  limit: DEFAULT_PAGE_SIZE,
  search: '',
  status: 'all',

  sortBy: 'completedAt',
  sortOrder: 'desc',
};

const oneOf = <T extends string | number>(allowed: readonly T[], value: T | undefined, fallback: T): T =>
  value !== undefined && allowed.includes(value) ? value : fallback;

/** Reads the list's state from the address, so a reload or a shared link shows the same page. */
function fromParams(params: URLSearchParams): ResultListQuery {
  const page = Number(params.get('page'));
  const sortBy = params.get('sortBy') ?? undefined;
  const sortOrder = params.get('sortOrder') ?? undefined;
  return {
    page: Number.isInteger(page) && page >= 1 ? page : DEFAULTS.page,
    limit: oneOf<number>(PAGE_SIZES, Number(params.get('limit')), DEFAULTS.limit),
    search: params.get('search') ?? '',
    status: oneOf(
      STATUS_OPTIONS.map((o) => o.value),
      params.get('status') as ResultListQuery['status'],
      DEFAULTS.status,
    ),
    sortBy: oneOf(
      SORT_OPTIONS.map((o) => o.sortBy),
      sortBy as ResultListQuery['sortBy'],
      DEFAULTS.sortBy,
    ),
    sortOrder: sortOrder === 'asc' || sortOrder === 'desc' ? sortOrder : DEFAULTS.sortOrder,
  };
}

function toParams(query: ResultListQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of Object.keys(DEFAULTS) as (keyof ResultListQuery)[]) {
    const value = key === 'search' ? query.search.trim() : query[key];
    if (value !== DEFAULTS[key]) params.set(key, String(value));
  }
  return params;
}

/**
 * The Results Management filters, kept in the URL's search parameters. Any change other than the
 * page itself goes back to page 1 (SPEC §2).
 */
export function useResultFilters() {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => fromParams(params), [params]);
  // A late change (the search box settling) must not cancel a move to another screen on its way.
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const leaving = useRef(false);
  leaving.current = navigation.location !== undefined && navigation.location.pathname !== pathname;
  const update = useCallback(
    (change: Partial<ResultListQuery>) => {
      if (leaving.current) return;
      setParams(
        (current) => {
          const before = fromParams(current);
          const next = { ...before, ...change };
          if (change.page === undefined) next.page = 1;
          return toParams(next);
        },
        // Typing and choosing filters replace the entry; moving between pages can be gone back on.
        { replace: change.page === undefined },
      );
    },
    [setParams],
  );
  return { query, update };
}

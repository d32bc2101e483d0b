import { useEffect, useRef, useState } from 'react';
import { useDebounced } from '../../../lib/hooks';
import type { useResultFilters } from './use-result-filters';

const SEARCH_DELAY_MS = 300;

/**
 * The search box of a list whose filters live in the address: only a pause in typing writes the search
 * into the address, and when the address changes on its own (the sidebar's Results link, Back) the box
 * follows it.
 */
export function useAddressSearch({ query, update }: ReturnType<typeof useResultFilters>) {
  const [search, setSearch] = useState(query.search);
  const settledSearch = useDebounced(search, SEARCH_DELAY_MS);
  // The address read at the moment the pause ends.
  const latest = useRef({ query, update });
  latest.current = { query, update };
  useEffect(() => {
    const { query: now, update: change } = latest.current;
    if (settledSearch.trim() !== now.search.trim()) change({ search: settledSearch });
  }, [settledSearch]);
  useEffect(() => {
    if (query.search !== settledSearch.trim()) setSearch(query.search);
  }, [query.search]);
  return [search, setSearch] as const;
}

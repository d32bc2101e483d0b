import { useLocation } from 'react-router-dom';

const LIST = '/admin/results';

/**
 * The Results list's address (filters, sort, page) handed to the screens it opens, in the history entry's state,
 * so that their Back returns to that very list, after a reload too.
 */
export const fromResultsList = (search: string) => ({ resultsList: search });

/**
 * The Results list this screen was opened from, else the plain list. The state is read back as search
 * parameters only, so whatever it holds the path stays the list's.
 */
export function useResultsListPath(): string {
  const { state } = useLocation() as { state: unknown };
  const carried =
    state !== null && typeof state === 'object' && 'resultsList' in state ? state.resultsList : undefined;
  const search = typeof carried === 'string' ? new URLSearchParams(carried).toString() : '';
  return search ? `${LIST}?${search}` : LIST;
}

import { Button } from './button';

interface PageNavProps {
  /** Names the navigation for screen readers ('Student pages'). */
  label: string;
  pagination: { currentPage: number; totalPages: number; totalResults: number };
  page: number;
  onPage: (page: number) => void;
  /**
   * The words in the page's language, each a whole message from the caller's catalogue: `previous`, `next`,
   * `page` ('Page 2 of 5', from `currentPage` and `totalPages`) and `size` ('(34 students)', a plural of
   * `totalResults`).
   */
  words: { previous: string; next: string; page: string; size: string };
}

/**
 * Previous and Next under a server-paged list, with where the admin is. Only the page is announced: a list that
 * refreshes itself would otherwise speak each time its size changes.
 */
export function PageNav({ label, pagination, page, onPage, words }: PageNavProps) {
  if (pagination.totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {words.previous}
      </Button>
      <span>
        <span aria-live="polite">{words.page}</span> {words.size}
      </span>
      <Button variant="secondary" disabled={page >= pagination.totalPages} onClick={() => onPage(page + 1)}>
        {words.next}
      </Button>
    </nav>
  );
}

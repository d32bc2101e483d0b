import { Button } from './button';

interface PageNavProps {
  /** Names the navigation for screen readers ('Student pages'). */
  label: string;
  pagination: { currentPage: number; totalPages: number; totalResults: number };
  page: number;
  onPage: (page: number) => void;
  /** What the list holds, for its size: `{ one: 'student', other: 'students' }` (English; see `words`). */
  unit?: { one: string; other: string };
  /**
   * The words in the page's language, each a whole message from the caller's catalogue: `previous`, `next`,
   * `page` ('Page 2 of 5', from `currentPage` and `totalPages`) and `size` ('(34 students)', a plural of
   * `totalResults`). Given, they replace the built-in English and `unit`.
   */
  words?: { previous: string; next: string; page: string; size: string };
}

/**
 * Previous and Next under a server-paged list, with where the admin is. Only the page is announced: a list that
 * refreshes itself would otherwise speak each time its size changes.
 */
export function PageNav({ label, pagination, page, onPage, unit, words }: PageNavProps) {
  const { currentPage, totalPages, totalResults } = pagination;
  if (totalPages <= 1) return null;
  if (words) {
    return (
      <nav className="pager" aria-label={label}>
        <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {words.previous}
        </Button>
        <span>
          <span aria-live="polite">{words.page}</span> {words.size}
        </span>
        <Button variant="secondary" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
          {words.next}
        </Button>
      </nav>
    );
  }
  return (
    <nav className="pager" aria-label={label}>
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span>
        <span aria-live="polite">
          Page {currentPage} of {totalPages}
        </span>{' '}
        ({totalResults} {totalResults === 1 ? unit?.one : unit?.other})
      </span>
      <Button variant="secondary" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

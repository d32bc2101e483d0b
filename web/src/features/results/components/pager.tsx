import { Button, Select } from '../../../components/ui';
import { PAGE_SIZES } from '../api/results-api';
import type { Pagination } from '../api/types';
import { useAdminT } from '../../../i18n/admin/admin-i18n';

const MAX_PAGE_BUTTONS = 5;

/** Up to five page numbers around the current page, kept inside 1…totalPages (SPEC §2, §9). */
export function pageWindow(current: number, totalPages: number): number[] {
  const count = Math.min(MAX_PAGE_BUTTONS, Math.max(totalPages, 1));
  const start = Math.max(1, Math.min(current - Math.floor(MAX_PAGE_BUTTONS / 2), totalPages - count + 1));
  return Array.from({ length: count }, (_, i) => start + i);
}

interface PagerProps {
  pagination: Pagination;
  page: number;
  limit: number;
  shown: number;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
}

export function Pager({ pagination, page, limit, shown, onPage, onLimit }: PagerProps) {
  const t = useAdminT();
  const { totalPages, totalResults } = pagination;
  const first = totalResults === 0 ? 0 : (page - 1) * limit + 1;
  const last = totalResults === 0 ? 0 : first + shown - 1;
  const onFirst = page <= 1;
  const onLast = page >= totalPages;
  return (
    <div className="pager">
      <div className="pager__size">
        <Select
          label={t('results.pager.perPage')}
          options={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
          value={String(limit)}
          onChange={(e) => onLimit(Number(e.target.value))}
        />
        <p className="muted" aria-live="polite">
          {t('results.pager.showing', { first, last, total: totalResults })}
        </p>
      </div>
      {totalPages > 1 && (
        <nav className="pager__pages" aria-label={t('results.pager.label')}>
          <Button variant="secondary" size="sm" disabled={onFirst} onClick={() => onPage(1)}>
            {t('results.pager.first')}
          </Button>
          <Button variant="secondary" size="sm" disabled={onFirst} onClick={() => onPage(page - 1)}>
            {t('results.pager.previous')}
          </Button>
          <span className="pager__numbers">
            {pageWindow(page, totalPages).map((n) => (
              <Button
                key={n}
                variant={n === page ? 'primary' : 'ghost'}
                size="sm"
                className="pager__number"
                aria-label={t('results.pager.page', { page: n })}
                aria-current={n === page ? 'page' : undefined}
                onClick={() => onPage(n)}
              >
                {String(n)}
              </Button>
            ))}
          </span>
          <Button variant="secondary" size="sm" disabled={onLast} onClick={() => onPage(page + 1)}>
            {t('results.pager.next')}
          </Button>
          <Button variant="secondary" size="sm" disabled={onLast} onClick={() => onPage(totalPages)}>
            {t('results.pager.last')}
          </Button>
        </nav>
      )}
    </div>
  );
}

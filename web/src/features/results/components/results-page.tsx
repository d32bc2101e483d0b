import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { BarChart2, Inbox } from 'lucide-react';
import { ButtonLink, Card, ListTable, SearchInput, Select } from '../../../components/ui';
import { notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { exportRequest, SORT_OPTIONS, STATUS_OPTIONS, useGetResultsQuery } from '../api/results-api';
import type { ResultStatus } from '../api/types';
import { ExportCsvButton } from '../../../lib/file-download';
import { useAddressSearch } from '../hooks/use-address-search';
import { useResultFilters } from '../hooks/use-result-filters';
import { fromResultsList } from '../hooks/results-list-path';
import { Pager } from './pager';
import { resultColumns } from './result-columns';
import { useResultActions } from './result-actions';
import { ResultStatCards } from './result-stats';

const sortValue = (sortBy: string, sortOrder: string) => `${sortBy}:${sortOrder}`;

export function ResultsPage() {
  const t = useAdminT();
  const filters = useResultFilters();
  const { query, update } = filters;
  const [search, setSearch] = useAddressSearch(filters);
  const location = useLocation();

  const { data, currentData, isLoading, isFetching, error } = useGetResultsQuery(query);
  useEffect(() => {
    if (error) notifyFailure(error, adminT('results.list.loadFailed'), { serverMessage: false });
  }, [error]);

  const results = data?.results ?? [];
  const pagination = data?.pagination;

  // A page past the end (an old link, results deleted elsewhere) shows the last page there is.
  const answered = currentData?.pagination;
  useEffect(() => {
    if (answered && answered.totalResults > 0 && query.page > answered.totalPages) {
      update({ page: answered.totalPages });
    }
  }, [answered, query.page, update]);

  const actions = useResultActions({
    // Deleting the last row of a page above the first goes back one page.
    onDeleted: () => {
      if (results.length === 1 && query.page > 1) update({ page: query.page - 1 });
    },
  });

  const columns = resultColumns(t, (action, row) => actions.ask(action, row), location.search);

  const filtered = query.search.trim() !== '' || query.status !== 'all';

  return (
    <div className="stack">
      <ResultStatCards stats={data?.stats} />
      <Card
        title={t('results.list.title')}
        actions={
          <div className="row-actions">
            <ButtonLink
              to="/admin/results/analysis"
              state={fromResultsList(location.search)}
              variant="secondary"
              icon={<BarChart2 size={18} aria-hidden="true" />}
            >
              {t('results.list.itemAnalysis')}
            </ButtonLink>
            <ExportCsvButton
              file={exportRequest(query)}
              name="assessment-results"
              failure={t('results.list.exportFailed')}
              label={t('common.exportCsv')}
            />
          </div>
        }
      >
        <div className="toolbar toolbar--filters">
          <SearchInput
            label={t('results.list.search')}
            placeholder={t('results.list.searchPlaceholder')}
            value={search}
            onChange={setSearch}
          />
          <Select
            label={t('results.list.result')}
            options={STATUS_OPTIONS}
            value={query.status}
            onChange={(e) => update({ status: e.target.value as ResultStatus })}
          />
          <Select
            label={t('results.list.sortBy')}
            options={SORT_OPTIONS.map((o) => ({ value: sortValue(o.sortBy, o.sortOrder), label: o.label }))}
            value={sortValue(query.sortBy, query.sortOrder)}
            onChange={(e) => {
              const chosen = SORT_OPTIONS.find((o) => sortValue(o.sortBy, o.sortOrder) === e.target.value);
              if (chosen) update({ sortBy: chosen.sortBy, sortOrder: chosen.sortOrder });
            }}
          />
        </div>
        <ListTable
          loading={isLoading}
          loadingLabel={t('results.list.loading')}
          fetching={isFetching}
          caption={t('results.list.caption')}
          columns={columns}
          rows={results}
          rowKey={(r) => r._id}
          empty={{
            icon: <Inbox size={28} />,
            title: t('results.list.emptyTitle'),
            description: filtered ? t('results.list.emptyFiltered') : undefined,
          }}
        />
        {pagination && (
          <Pager
            pagination={pagination}
            page={query.page}
            limit={query.limit}
            shown={results.length}
            onPage={(page) => update({ page })}
            onLimit={(limit) => update({ limit })}
          />
        )}
      </Card>
      {actions.dialogs}
    </div>
  );
}

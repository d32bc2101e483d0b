import { useEffect, useState } from 'react';
import { Activity } from 'lucide-react';
import { Card, ListTable, PageNav, SearchInput } from '../../../components/ui';
import { useDebounced } from '../../../lib/hooks';
import { pagerWords, useAdminT } from '../../../i18n/admin/admin-i18n';
import { LIVE_POLL_MS, useGetLiveAttemptsQuery, type LiveAttempt } from '../api/live-api';
import { useReportedOnce } from '../hooks/use-reported-once';
import { useServerClock } from '../hooks/use-server-clock';
import { liveColumns } from './live-columns';
import { AddTimeDialog, EndAttemptDialog } from './live-dialogs';
import { WaitingRoomPanel } from './waiting-room-panel';

const PAGE_SIZE = 25;
const SEARCH_DELAY_MS = 300;

/** Every attempt in progress, least time left first, kept up to date while it is open; time added or an end. */
export function LivePage() {
  const t = useAdminT();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const settledSearch = useDebounced(search, SEARCH_DELAY_MS);
  // Polled whether or not the window has the focus: the screen is watched beside others.
  const { data, currentData, isLoading, isFetching, error } = useGetLiveAttemptsQuery(
    { search: settledSearch, page, limit: PAGE_SIZE },
    { pollingInterval: LIVE_POLL_MS },
  );
  const clock = useServerClock(data);
  const [addTimeTarget, setAddTimeTarget] = useState<LiveAttempt | null>(null);
  const [endTarget, setEndTarget] = useState<LiveAttempt | null>(null);

  useReportedOnce(error, t('live.page.loadFailed'));
  useEffect(() => setPage(1), [settledSearch]);

  // Attempts end all the time: a page past the end shows the last page there is.
  const answered = currentData?.pagination;
  useEffect(() => {
    if (answered && answered.totalResults > 0 && page > answered.totalPages) setPage(answered.totalPages);
  }, [answered, page]);

  const columns = liveColumns(t, clock, { onAddTime: setAddTimeTarget, onEnd: setEndTarget });

  return (
    <div className="stack">
      <WaitingRoomPanel />
      <Card title={t('live.page.title')}>
        <p className="muted live__intro">{t('live.page.intro')}</p>
        <div className="toolbar toolbar--filters">
          <SearchInput
            label={t('live.page.search')}
            placeholder={t('live.page.searchPlaceholder')}
            value={search}
            onChange={setSearch}
          />
        </div>
        <ListTable
          loading={isLoading}
          loadingLabel={t('live.page.loading')}
          // Busy only while another page or search loads, not at each poll.
          fetching={isFetching && !currentData}
          caption={t('live.page.caption')}
          columns={columns}
          rows={data?.attempts ?? []}
          rowKey={(a) => a.attemptId}
          empty={
            settledSearch.trim()
              ? { icon: <Activity size={28} />, title: t('live.page.noMatch') }
              : {
                  icon: <Activity size={28} />,
                  title: t('live.page.emptyTitle'),
                  description: t('live.page.emptyText'),
                }
          }
        />
        {data && (
          <PageNav
            label={t('live.pager.label')}
            pagination={data.pagination}
            page={page}
            onPage={setPage}
            words={pagerWords(t, data.pagination, 'live.pager.size')}
          />
        )}
      </Card>

      <AddTimeDialog attempt={addTimeTarget} onClose={() => setAddTimeTarget(null)} />
      <EndAttemptDialog attempt={endTarget} onClose={() => setEndTarget(null)} />
    </div>
  );
}

import { useEffect } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { ArrowLeft, BarChart2 } from 'lucide-react';
import { ButtonLink, Card, type Column, EmptyState, Select, Spinner, Table } from '../../../components/ui';
import { useScrollToTop } from '../../../lib/hooks';
import { notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { useGetItemAnalysisQuery } from '../api/results-api';
import type { ItemAnalysis } from '../api/types';
import { useResultsListPath } from '../hooks/results-list-path';

type QuestionRow = ItemAnalysis['questions'][number];

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** A small horizontal bar; the figure beside it says the same in text. */
function ShareBar({ share }: { share: number }) {
  return (
    <span className="bar bar--brand" aria-hidden="true">
      <span className="bar__fill" style={{ width: `${Math.max(0, Math.min(1, share)) * 100}%` }} />
    </span>
  );
}

/** A histogram as a list a screen reader reads bucket by bucket. */
function Histogram({ buckets }: { buckets: ItemAnalysis['distribution'] }) {
  const t = useAdminT();
  const highest = Math.max(1, ...buckets.map((b) => b.count));
  return (
    <ul className="histogram" aria-label={t('results.analysis.distribution')}>
      {buckets.map((b) => (
        <li key={b.from} className="histogram__bucket">
          <span className="visually-hidden">
            {t('results.analysis.bucket', { from: b.from, to: b.to, count: b.count })}
          </span>
          <span className="histogram__count" aria-hidden="true">
            {b.count}
          </span>
          <span className="histogram__column" aria-hidden="true">
            <span className="histogram__fill" style={{ height: `${(b.count / highest) * 100}%` }} />
          </span>
          <span className="histogram__range" aria-hidden="true">
            {b.from}–{b.to}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function ItemAnalysisPage() {
  const t = useAdminT();
  const [params, setParams] = useSearchParams();
  const { state } = useLocation();
  const resultsList = useResultsListPath();
  const chosen = Number(params.get('version'));
  const version = Number.isInteger(chosen) && chosen > 0 ? chosen : undefined;
  const { data, isLoading, isFetching, error } = useGetItemAnalysisQuery(version);
  useScrollToTop(undefined);

  useEffect(() => {
    if (error) notifyFailure(error, adminT('results.analysis.loadFailed'), { serverMessage: false });
  }, [error]);

  const sectionTitle = new Map((data?.sections ?? []).map((s) => [String(s.id), s.title]));
  const rows = data?.questions ?? [];
  const columns: Column<QuestionRow>[] = [
    {
      key: 'question',
      header: t('results.analysis.question'),
      render: (q) => (
        <div>
          <p className="question-results__number">
            {t('results.analysis.questionNumber', { number: q.number })}
          </p>
          <p>{q.question}</p>
        </div>
      ),
    },
    {
      key: 'section',
      header: t('results.analysis.section'),
      priority: 'low',
      render: (q) => sectionTitle.get(String(q.section)) ?? String(q.section),
    },
    { key: 'attempts', header: t('results.analysis.attempts'), align: 'end', render: (q) => q.attempts },
    { key: 'correct', header: t('results.analysis.correct'), align: 'end', render: (q) => q.correct },
    {
      key: 'skipped',
      header: t('results.analysis.skipped'),
      align: 'end',
      priority: 'low',
      render: (q) => q.skipped,
    },
    {
      key: 'facility',
      header: t('results.analysis.facility'),
      render: (q) => (
        <span className="facility">
          <ShareBar share={q.facility} />
          <span>{percent(q.facility)}</span>
        </span>
      ),
    },
  ];

  return (
    <div className="stack">
      <div className="detail-actions">
        <ButtonLink to={resultsList} variant="secondary" icon={<ArrowLeft size={18} aria-hidden="true" />}>
          {t('results.analysis.back')}
        </ButtonLink>
        {data && data.versions.length > 0 && (
          <div className="analysis-version">
            <Select
              label={t('results.analysis.version')}
              options={data.versions.map((v) => ({
                value: String(v),
                label: t('results.analysis.versionOption', { version: v }),
              }))}
              value={String(data.version ?? '')}
              onChange={(e) => setParams({ version: e.target.value }, { replace: true, state })}
            />
          </div>
        )}
      </div>
      {isLoading ? (
        <div className="center-block">
          <Spinner label={t('results.analysis.loading')} />
        </div>
      ) : !data || data.attempts === 0 ? (
        <Card>
          <EmptyState
            icon={<BarChart2 size={28} />}
            title={t('results.analysis.emptyTitle')}
            description={t('results.analysis.emptyText')}
          />
        </Card>
      ) : (
        <div className="stack" aria-busy={isFetching}>
          <p className="muted">
            {t('results.analysis.intro', { attempts: data.attempts, version: data.version })}
          </p>
          <Card title={t('results.analysis.questions')}>
            <Table
              caption={t('results.analysis.caption')}
              columns={columns}
              rows={rows}
              rowKey={(q) => q.id}
            />
          </Card>
          <div className="detail-grid">
            <Card title={t('results.analysis.sectionMeans')}>
              <ul className="section-means">
                {data.sections.map((s) => (
                  <li key={String(s.id)} className="section-means__item">
                    <span>{s.title}</span>
                    <span className="facility">
                      <ShareBar share={s.meanPercentage / 100} />
                      <span>{Math.round(s.meanPercentage)}%</span>
                    </span>
                  </li>
                ))}
              </ul>
            </Card>
            <Card title={t('results.analysis.scoreDistribution')}>
              <Histogram buckets={data.distribution} />
            </Card>
          </div>
        </div>
      )}
    </div>
  );
}

import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import {
  BarChart3,
  CheckCircle2,
  ClipboardList,
  Inbox,
  MailQuestion,
  Percent,
  UserPlus,
  Users,
} from 'lucide-react';
import { Card, EmptyState, PassBadge, PercentageBadge, Spinner, StatCard } from '../../../components/ui';
import { formatDateTime } from '../../../lib/format';
import { notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { useGetDashboardQuery } from '../api/dashboard-api';
import type { RecentResult } from '../api/types';

function RecentResults({ results }: { results: RecentResult[] }) {
  const t = useAdminT();
  if (results.length === 0)
    return <EmptyState icon={<Inbox size={28} />} title={t('dashboard.recent.empty')} />;
  return (
    <ul className="recent-results">
      {results.map((r) => (
        <li key={r._id} className="recent-results__item">
          <div className="recent-results__who">
            <Link to={`/admin/results/${encodeURIComponent(r._id)}`} className="recent-results__name">
              <bdi>{r.student.name}</bdi>
            </Link>
            <span className="person__email">{r.student.email}</span>
          </div>
          <div className="recent-results__figures">
            <PercentageBadge percentage={r.percentage} />
            <PassBadge passed={r.passed} words={{ passed: t('common.passed'), failed: t('common.failed') }} />
            <span className="muted recent-results__date">{formatDateTime(r.completedAt)}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function DashboardPage() {
  const t = useAdminT();
  const { data, isLoading, error } = useGetDashboardQuery(undefined, { refetchOnMountOrArgChange: 30 });

  useEffect(() => {
    if (error) notifyFailure(error, adminT('dashboard.loadFailed'), { serverMessage: false });
  }, [error]);

  const stats = data?.stats;
  const figure = (value: number | undefined, suffix = '') =>
    value === undefined ? '—' : `${Math.round(value)}${suffix}`;

  return (
    <div className="stack">
      <div className="stats-grid">
        <StatCard
          label={t('dashboard.stats.totalStudents')}
          value={figure(stats?.totalStudents)}
          icon={<Users size={22} />}
        />
        <StatCard
          label={t('dashboard.stats.completedAssessments')}
          value={figure(stats?.completedAssessments)}
          icon={<CheckCircle2 size={22} />}
          tone="success"
        />
        <StatCard
          label={t('dashboard.stats.passRate')}
          value={figure(stats?.passRate, '%')}
          icon={<Percent size={22} />}
          tone="accent"
        />
        <StatCard
          label={t('dashboard.stats.pendingInvites')}
          value={figure(stats?.pendingInvites)}
          icon={<MailQuestion size={22} />}
          tone="warning"
        />
      </div>

      <Card title={t('dashboard.recent.title')}>
        {isLoading ? (
          <div className="center-block">
            <Spinner label={t('dashboard.recent.loading')} />
          </div>
        ) : (
          <RecentResults results={data?.recentResults ?? []} />
        )}
      </Card>

      <Card title={t('dashboard.quickActions.title')}>
        <div className="quick-actions">
          <Link to="/admin/students" className="quick-action">
            <UserPlus size={22} aria-hidden="true" />
            <span>{t('dashboard.quickActions.inviteStudents')}</span>
          </Link>
          <Link to="/admin/assessments" className="quick-action">
            <ClipboardList size={22} aria-hidden="true" />
            <span>{t('dashboard.quickActions.manageAssessment')}</span>
          </Link>
          <Link to="/admin/results" className="quick-action">
            <BarChart3 size={22} aria-hidden="true" />
            <span>{t('dashboard.quickActions.viewAllResults')}</span>
          </Link>
        </div>
      </Card>
    </div>
  );
}

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
import { useGetDashboardQuery } from '../api/dashboard-api';
import type { RecentResult } from '../api/types';

function RecentResults({ results }: { results: RecentResult[] }) {
  if (results.length === 0) return <EmptyState icon={<Inbox size={28} />} title="No results yet" />;
  return (
    <ul className="recent-results">
      {results.map((r) => (
        <li key={r._id} className="recent-results__item">
          <div className="recent-results__who">
            <Link to={`/admin/results/${encodeURIComponent(r._id)}`} className="recent-results__name">
              {r.student.name}
            </Link>
            <span className="person__email">{r.student.email}</span>
          </div>
          <div className="recent-results__figures">
            <PercentageBadge percentage={r.percentage} />
            <PassBadge passed={r.passed} />
            <span className="muted recent-results__date">{formatDateTime(r.completedAt)}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function DashboardPage() {
  const { data, isLoading, error } = useGetDashboardQuery(undefined, { refetchOnMountOrArgChange: 30 });

  useEffect(() => {
    if (error) notifyFailure(error, 'Failed to load dashboard data', { serverMessage: false });
  }, [error]);

  const stats = data?.stats;
  const figure = (value: number | undefined, suffix = '') =>
    value === undefined ? '—' : `${Math.round(value)}${suffix}`;

  return (
    <div className="stack">
      <div className="stats-grid">
        <StatCard label="Total Students" value={figure(stats?.totalStudents)} icon={<Users size={22} />} />
        <StatCard
          label="Completed Assessments"
          value={figure(stats?.completedAssessments)}
          icon={<CheckCircle2 size={22} />}
          tone="success"
        />
        <StatCard
          label="Pass Rate"
          value={figure(stats?.passRate, '%')}
          icon={<Percent size={22} />}
          tone="accent"
        />
        <StatCard
          label="Pending Invites"
          value={figure(stats?.pendingInvites)}
          icon={<MailQuestion size={22} />}
          tone="warning"
        />
      </div>

      <Card title="Recent Assessment Results">
        {isLoading ? (
          <div className="center-block">
            <Spinner label="Loading recent results" />
          </div>
        ) : (
          <RecentResults results={data?.recentResults ?? []} />
        )}
      </Card>

      <Card title="Quick Actions">
        <div className="quick-actions">
          <Link to="/admin/students" className="quick-action">
            <UserPlus size={22} aria-hidden="true" />
            <span>Invite Students</span>
          </Link>
          <Link to="/admin/assessments" className="quick-action">
            <ClipboardList size={22} aria-hidden="true" />
            <span>Manage Assessment</span>
          </Link>
          <Link to="/admin/results" className="quick-action">
            <BarChart3 size={22} aria-hidden="true" />
            <span>View All Results</span>
          </Link>
        </div>
      </Card>
    </div>
  );
}

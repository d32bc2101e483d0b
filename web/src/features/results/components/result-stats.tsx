import { CheckCircle2, FileText, Percent, XCircle } from 'lucide-react';
import { StatCard } from '../../../components/ui';
import type { ResultStats } from '../api/types';

/** The four stat cards over every result, whatever the filter; dashes until the first page is in. */
export function ResultStatCards({ stats }: { stats: ResultStats | undefined }) {
  return (
    <div className="stats-grid">
      <StatCard label="Total Results" value={stats?.totalResults ?? '—'} icon={<FileText size={22} />} />
      <StatCard
        label="Passed"
        value={stats?.passed ?? '—'}
        icon={<CheckCircle2 size={22} />}
        tone="success"
      />
      <StatCard label="Failed" value={stats?.failed ?? '—'} icon={<XCircle size={22} />} tone="danger" />
      <StatCard
        label="Average Score"
        value={stats ? `${Math.round(stats.averagePercentage)}%` : '—'}
        icon={<Percent size={22} />}
        tone="accent"
      />
    </div>
  );
}

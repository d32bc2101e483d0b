import { CheckCircle2, FileText, Percent, XCircle } from 'lucide-react';
import { StatCard } from '../../../components/ui';
import type { ResultStats } from '../api/types';
import { useAdminT } from '../../../i18n/admin/admin-i18n';

/** The four stat cards over every result, whatever the filter; dashes until the first page is in. */
export function ResultStatCards({ stats }: { stats: ResultStats | undefined }) {
  const t = useAdminT();
  return (
    <div className="stats-grid">
      <StatCard
        label={t('results.stats.total')}
        value={stats?.totalResults ?? '—'}
        icon={<FileText size={22} />}
      />
      <StatCard
        label={t('results.stats.passed')}
        value={stats?.passed ?? '—'}
        icon={<CheckCircle2 size={22} />}
        tone="success"
      />
      <StatCard
        label={t('results.stats.failed')}
        value={stats?.failed ?? '—'}
        icon={<XCircle size={22} />}
        tone="danger"
      />
      <StatCard
        label={t('results.stats.average')}
        value={
          stats ? t('results.stats.averageValue', { percent: Math.round(stats.averagePercentage) }) : '—'
        }
        icon={<Percent size={22} />}
        tone="accent"
      />
    </div>
  );
}

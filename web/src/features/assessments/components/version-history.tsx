import { History } from 'lucide-react';
import { Badge, Button, Card, EmptyState, Spinner } from '../../../components/ui';
import { formatDateTime } from '../../../lib/format';
import { useAdminT } from '../../../i18n/admin/admin-i18n';
import type { AssessmentVersionSummary } from '../api/types';

interface VersionHistoryProps {
  versions: AssessmentVersionSummary[];
  loading: boolean;
  /** The version shown read-only, if any. */
  viewing: number | null;
  onView: (version: number) => void;
  onActivate: (version: number) => void;
  onExport: (version: number) => void;
}

/** The Version History panel: every saved version, newest first, the active one labelled 'Current'. */
export function VersionHistory({
  versions,
  loading,
  viewing,
  onView,
  onActivate,
  onExport,
}: VersionHistoryProps) {
  const t = useAdminT();
  return (
    <Card title={t('assessments.history.title')} className="version-history">
      {loading ? (
        <div className="center-block">
          <Spinner label={t('assessments.history.loading')} />
        </div>
      ) : versions.length === 0 ? (
        <EmptyState icon={<History size={24} />} title={t('assessments.history.empty')} />
      ) : (
        <ol className="version-list">
          {versions.map((v) => (
            <li
              key={v.version}
              className={`version-list__item${viewing === v.version ? ' is-viewing' : ''}`}
              aria-current={viewing === v.version ? 'true' : undefined}
            >
              <div className="version-list__head">
                <span className="version-list__name">
                  {t('assessments.version.name', { version: v.version })}
                </span>
                {v.isActive && <Badge tone="success">{t('assessments.version.current')}</Badge>}
              </div>
              <p className="version-list__meta">
                {formatDateTime(v.createdAt)}
                {v.createdBy?.name && (
                  <>
                    {' '}
                    · <bdi>{v.createdBy.name}</bdi>
                  </>
                )}
              </p>
              {v.changeNotes && <p className="version-list__notes">{v.changeNotes}</p>}
              <div className="version-list__actions">
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => onView(v.version)}
                  aria-label={t('assessments.history.viewLabel', { version: v.version })}
                >
                  {t('assessments.history.view')}
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => onExport(v.version)}
                  aria-label={t('assessments.history.exportLabel', { version: v.version })}
                >
                  {t('assessments.history.export')}
                </Button>
                {!v.isActive && (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => onActivate(v.version)}
                    aria-label={t('assessments.history.makeCurrentLabel', { version: v.version })}
                  >
                    {t('assessments.version.makeCurrent')}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

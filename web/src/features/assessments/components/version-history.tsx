import { History } from 'lucide-react';
import { Badge, Button, Card, EmptyState, Spinner } from '../../../components/ui';
import { formatDateTime } from '../../../lib/format';
import type { AssessmentVersionSummary } from '../api/types';

interface VersionHistoryProps {
  versions: AssessmentVersionSummary[];
  loading: boolean;
  /** The version shown read-only, if any. */
  viewing: number | null;
  onView: (version: number) => void;
  onActivate: (version: number) => void;
}

/** The Version History panel: every saved version, newest first, the active one labelled 'Current'. */
export function VersionHistory({ versions, loading, viewing, onView, onActivate }: VersionHistoryProps) {
  return (
    <Card title="Version History" className="version-history">
      {loading ? (
        <div className="center-block">
          <Spinner label="Loading version history" />
        </div>
      ) : versions.length === 0 ? (
        <EmptyState icon={<History size={24} />} title="No versions yet" />
      ) : (
        <ol className="version-list">
          {versions.map((v) => (
            <li
              key={v.version}
              className={`version-list__item${viewing === v.version ? ' is-viewing' : ''}`}
              aria-current={viewing === v.version ? 'true' : undefined}
            >
              <div className="version-list__head">
                <span className="version-list__name">Version {v.version}</span>
                {v.isActive && <Badge tone="success">Current</Badge>}
              </div>
              <p className="version-list__meta">
                {formatDateTime(v.createdAt)}
                {v.createdBy?.name && <> · {v.createdBy.name}</>}
              </p>
              {v.changeNotes && <p className="version-list__notes">{v.changeNotes}</p>}
              <div className="version-list__actions">
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => onView(v.version)}
                  aria-label={`View version ${v.version}`}
                >
                  View
                </Button>
                {!v.isActive && (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => onActivate(v.version)}
                    aria-label={`Make version ${v.version} current`}
                  >
                    Make Current
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

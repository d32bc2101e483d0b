import type { RefObject } from 'react';
import { Pencil, Upload } from 'lucide-react';
import { Badge, Button } from '../../../components/ui';
import { useAdminT } from '../../../i18n/admin/admin-i18n';

interface VersionHeadingProps {
  /** Focused when the mode changes, so a screen reader follows along. */
  headingRef: RefObject<HTMLHeadingElement | null>;
  title: string;
  currentVersion: number;
  /** An earlier version shown read-only, or null for the current one. */
  oldVersion: number | null;
  onEdit: () => void;
  onBack: () => void;
  onActivate: (version: number) => void;
  onImport: () => void;
}

/** What is shown (the current version, or an earlier one read-only) and what can be done with it. */
export function VersionHeading({
  headingRef,
  title,
  currentVersion,
  oldVersion,
  onEdit,
  onBack,
  onActivate,
  onImport,
}: VersionHeadingProps) {
  const t = useAdminT();
  return (
    <div className="page-heading page-heading--row">
      <div>
        <h2 className="page-heading__title" ref={headingRef} tabIndex={-1}>
          {oldVersion !== null ? t('assessments.version.readOnly', { version: oldVersion }) : title}
        </h2>
        <p className="muted">
          {oldVersion !== null ? (
            t('assessments.version.notCurrent')
          ) : (
            <>
              {t('assessments.version.name', { version: currentVersion })}{' '}
              <Badge tone="success">{t('assessments.version.current')}</Badge>
            </>
          )}
        </p>
      </div>
      <div className="page-heading__actions">
        {oldVersion !== null ? (
          <>
            <Button variant="secondary" onClick={onBack}>
              {t('assessments.version.backToCurrent')}
            </Button>
            <Button onClick={() => onActivate(oldVersion)}>{t('assessments.version.makeCurrent')}</Button>
          </>
        ) : (
          <>
            <Button variant="secondary" icon={<Upload size={18} aria-hidden="true" />} onClick={onImport}>
              {t('assessments.import.open')}
            </Button>
            <Button icon={<Pencil size={18} aria-hidden="true" />} onClick={onEdit}>
              {t('assessments.version.edit')}
            </Button>
          </>
        )}
      </div>
    </div>
  );
}

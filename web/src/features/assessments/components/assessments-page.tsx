import { useEffect, useRef, useState } from 'react';
import { useSelector } from 'react-redux';
import { ClipboardList, Eye, Plus, Upload } from 'lucide-react';
import { Button, Card, EmptyState, Spinner } from '../../../components/ui';
import { isHttpError } from '../../../lib/errors';
import { notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { selectIsSuperAdmin } from '../../auth/api/session';
import { blankAssessment } from '../api/assessment-schema';
import {
  useDeleteAssessmentFileMutation,
  useGetAssessmentQuery,
  useGetAssessmentVersionQuery,
  useGetAssessmentVersionsQuery,
} from '../api/assessments-api';
import { contentAfterImport, importedFiles } from '../api/import-content';
import type { AssessmentContent } from '../api/types';
import { ActivateVersionDialog } from './activate-version-dialog';
import { ExportVersionDialog } from './export-version-dialog';
import { ImportContentDialog } from './import-content-dialog';
import { AssessmentEditor } from './assessment-editor';
import { AssessmentView } from './assessment-view';
import { VersionHeading } from './version-heading';
import { VersionHistory } from './version-history';

/** Edit starts from the current version, or from what a file was read into (`imported`, with the file's name). */
type Mode =
  | { kind: 'read' }
  | { kind: 'edit'; imported?: { content: AssessmentContent; fileName: string; files: string[] } }
  | { kind: 'version'; version: number };

export function AssessmentsPage() {
  const t = useAdminT();
  const isSuperAdmin = useSelector(selectIsSuperAdmin);
  const current = useGetAssessmentQuery();
  const versions = useGetAssessmentVersionsQuery();
  const [mode, setMode] = useState<Mode>({ kind: 'read' });
  const [activateTarget, setActivateTarget] = useState<number | null>(null);
  const [exportTarget, setExportTarget] = useState<number | null>(null);
  const [importing, setImporting] = useState(false);
  const [deleteFile] = useDeleteAssessmentFileMutation();
  const viewedVersion = mode.kind === 'version' ? mode.version : null;
  const old = useGetAssessmentVersionQuery(viewedVersion ?? 0, { skip: viewedVersion === null });
  const heading = useRef<HTMLHeadingElement>(null);

  // No assessment yet is a state of its own (the empty state), not a failure.
  const missing =
    (isHttpError(current.error) && current.error.status === 404) || (current.isSuccess && !current.data);

  useEffect(() => {
    if (current.error && !missing)
      notifyFailure(current.error, adminT('assessments.page.loadFailed'), { serverMessage: false });
  }, [current.error, missing]);
  useEffect(() => {
    if (versions.error && !(isHttpError(versions.error) && versions.error.status === 404)) {
      notifyFailure(versions.error, adminT('assessments.page.versionsLoadFailed'), { serverMessage: false });
    }
  }, [versions.error]);
  useEffect(() => {
    if (old.error) notifyFailure(old.error, adminT('assessments.page.loadFailed'), { serverMessage: false });
  }, [old.error]);

  // A change of mode moves focus to the heading of what is now shown, so a screen reader follows along.
  useEffect(() => {
    heading.current?.focus();
  }, [mode]);

  if (current.isLoading) {
    return (
      <div className="center-block">
        <Spinner label={t('assessments.page.loading')} />
      </div>
    );
  }

  const importDialog = (
    <ImportContentDialog
      open={importing}
      canAppend={Boolean(current.data)}
      onClose={() => setImporting(false)}
      onImport={(preview, importMode, fileName) => {
        setImporting(false);
        setMode({
          kind: 'edit',
          imported: {
            content: contentAfterImport(current.data, preview.content, importMode),
            fileName,
            files: importedFiles(preview.content),
          },
        });
      }}
    />
  );

  if (missing && mode.kind !== 'edit') {
    return (
      <Card>
        <EmptyState
          icon={<ClipboardList size={28} />}
          title={t('assessments.page.empty.title')}
          description={t('assessments.page.empty.description')}
          action={
            isSuperAdmin ? (
              <div className="row-actions">
                <Button
                  variant="secondary"
                  icon={<Upload size={18} aria-hidden="true" />}
                  onClick={() => setImporting(true)}
                >
                  {t('assessments.import.open')}
                </Button>
                <Button
                  icon={<Plus size={18} aria-hidden="true" />}
                  onClick={() => setMode({ kind: 'edit' })}
                >
                  {t('assessments.page.create')}
                </Button>
              </div>
            ) : undefined
          }
        />
        {importDialog}
      </Card>
    );
  }

  const assessment = current.data;
  if (!assessment && !missing) {
    return (
      <Card>
        <EmptyState icon={<ClipboardList size={28} />} title={t('assessments.page.loadFailed')} />
      </Card>
    );
  }

  if (mode.kind === 'edit') {
    return (
      <div className="stack">
        <div className="page-heading">
          <h2 className="page-heading__title" ref={heading} tabIndex={-1}>
            {assessment
              ? t('assessments.page.editingVersion', { version: assessment.version })
              : t('assessments.page.newAssessment')}
          </h2>
          <p className="muted">
            {mode.imported
              ? t('assessments.import.editing', { file: mode.imported.fileName })
              : t('assessments.page.editHint')}
          </p>
        </div>
        <AssessmentEditor
          source={mode.imported?.content ?? assessment ?? blankAssessment}
          unsaved={Boolean(mode.imported)}
          onDiscard={() => mode.imported?.files.forEach((f) => void deleteFile(f).catch(() => undefined))}
          baseVersion={assessment?.version}
          onClose={() => setMode({ kind: 'read' })}
        />
      </div>
    );
  }

  const shown = mode.kind === 'version' && viewedVersion !== assessment!.version ? old.data : assessment;
  const oldView = mode.kind === 'version' && viewedVersion !== assessment!.version;

  return (
    <div className="assessment-layout">
      <div className="stack assessment-layout__main">
        <VersionHeading
          headingRef={heading}
          title={assessment!.title}
          currentVersion={assessment!.version}
          oldVersion={oldView ? viewedVersion : null}
          onEdit={() => setMode({ kind: 'edit' })}
          onBack={() => setMode({ kind: 'read' })}
          onActivate={setActivateTarget}
          onImport={() => setImporting(true)}
        />
        {oldView && !shown ? (
          <div className="center-block">
            {old.isError ? (
              <EmptyState icon={<Eye size={28} />} title={t('assessments.page.versionLoadFailed')} />
            ) : (
              <Spinner label={t('assessments.page.loadingVersion', { version: viewedVersion })} />
            )}
          </div>
        ) : (
          <AssessmentView assessment={shown!} />
        )}
      </div>
      <aside className="assessment-layout__aside" aria-label={t('assessments.page.versions')}>
        <VersionHistory
          versions={versions.data ?? []}
          loading={versions.isLoading}
          viewing={oldView ? viewedVersion : (assessment?.version ?? null)}
          onView={(version) =>
            setMode(version === assessment!.version ? { kind: 'read' } : { kind: 'version', version })
          }
          onActivate={setActivateTarget}
          onExport={setExportTarget}
        />
      </aside>
      <ActivateVersionDialog
        version={activateTarget}
        onClose={() => setActivateTarget(null)}
        onActivated={() => setMode({ kind: 'read' })}
      />
      <ExportVersionDialog version={exportTarget} onClose={() => setExportTarget(null)} />
      {importDialog}
    </div>
  );
}

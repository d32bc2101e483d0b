import { useEffect, useRef, useState } from 'react';
import { useSelector } from 'react-redux';
import { ClipboardList, Eye, Pencil, Plus } from 'lucide-react';
import { Badge, Button, Card, ConfirmDialog, EmptyState, Spinner } from '../../../components/ui';
import { isHttpError } from '../../../lib/errors';
import { notify, notifyFailure } from '../../../lib/toast';
import { selectIsSuperAdmin } from '../../auth/api/session';
import { blankAssessment } from '../api/assessment-schema';
import {
  useActivateAssessmentVersionMutation,
  useGetAssessmentQuery,
  useGetAssessmentVersionQuery,
  useGetAssessmentVersionsQuery,
} from '../api/assessments-api';
import { AssessmentEditor } from './assessment-editor';
import { AssessmentView } from './assessment-view';
import { VersionHistory } from './version-history';

type Mode = { kind: 'read' } | { kind: 'edit' } | { kind: 'version'; version: number };

export function AssessmentsPage() {
  const isSuperAdmin = useSelector(selectIsSuperAdmin);
  const current = useGetAssessmentQuery();
  const versions = useGetAssessmentVersionsQuery();
  const [mode, setMode] = useState<Mode>({ kind: 'read' });
  const [activateTarget, setActivateTarget] = useState<number | null>(null);
  const [activate, { isLoading: activating }] = useActivateAssessmentVersionMutation();
  const viewedVersion = mode.kind === 'version' ? mode.version : null;
  const old = useGetAssessmentVersionQuery(viewedVersion ?? 0, { skip: viewedVersion === null });
  const heading = useRef<HTMLHeadingElement>(null);

  // No assessment yet is a state of its own (the empty state), not a failure.
  const missing =
    (isHttpError(current.error) && current.error.status === 404) || (current.isSuccess && !current.data);

  useEffect(() => {
    if (current.error && !missing)
      notifyFailure(current.error, 'Failed to load assessment', { serverMessage: false });
  }, [current.error, missing]);
  useEffect(() => {
    if (versions.error && !(isHttpError(versions.error) && versions.error.status === 404)) {
      notifyFailure(versions.error, 'Failed to load version history', { serverMessage: false });
    }
  }, [versions.error]);
  useEffect(() => {
    if (old.error) notifyFailure(old.error, 'Failed to load assessment', { serverMessage: false });
  }, [old.error]);

  // A change of mode moves focus to the heading of what is now shown, so a screen reader follows along.
  useEffect(() => {
    heading.current?.focus();
  }, [mode]);

  const confirmActivate = async () => {
    if (activateTarget === null) return;
    try {
      await activate(activateTarget).unwrap();
      notify.success(`Version ${activateTarget} is now the current version`);
      setActivateTarget(null);
      setMode({ kind: 'read' });
    } catch (err) {
      notifyFailure(err, 'Failed to update assessment');
    }
  };

  if (current.isLoading) {
    return (
      <div className="center-block">
        <Spinner label="Loading assessment" />
      </div>
    );
  }

  if (missing && mode.kind !== 'edit') {
    return (
      <Card>
        <EmptyState
          icon={<ClipboardList size={28} />}
          title="No Assessment Found"
          description="There is no assessment yet. Please contact the system administrator."
          action={
            isSuperAdmin ? (
              <Button icon={<Plus size={18} aria-hidden="true" />} onClick={() => setMode({ kind: 'edit' })}>
                Create Assessment
              </Button>
            ) : undefined
          }
        />
      </Card>
    );
  }

  const assessment = current.data;
  if (!assessment && !missing) {
    return (
      <Card>
        <EmptyState icon={<ClipboardList size={28} />} title="Failed to load assessment" />
      </Card>
    );
  }

  if (mode.kind === 'edit') {
    return (
      <div className="stack">
        <div className="page-heading">
          <h2 className="page-heading__title" ref={heading} tabIndex={-1}>
            {assessment ? `Editing version ${assessment.version}` : 'New assessment'}
          </h2>
          <p className="muted">Your changes are saved as a new version when you press Save Changes.</p>
        </div>
        <AssessmentEditor
          source={assessment ?? blankAssessment}
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
        <div className="page-heading page-heading--row">
          <div>
            <h2 className="page-heading__title" ref={heading} tabIndex={-1}>
              {oldView ? `Version ${viewedVersion} (read-only)` : assessment!.title}
            </h2>
            <p className="muted">
              {oldView ? (
                'Not the current version: shown as it was saved, read-only.'
              ) : (
                <>
                  Version {assessment!.version} <Badge tone="success">Current</Badge>
                </>
              )}
            </p>
          </div>
          <div className="page-heading__actions">
            {oldView ? (
              <>
                <Button variant="secondary" onClick={() => setMode({ kind: 'read' })}>
                  Back to Current
                </Button>
                <Button onClick={() => setActivateTarget(viewedVersion)}>Make Current</Button>
              </>
            ) : (
              <Button
                icon={<Pencil size={18} aria-hidden="true" />}
                onClick={() => setMode({ kind: 'edit' })}
              >
                Edit Assessment
              </Button>
            )}
          </div>
        </div>
        {oldView && !shown ? (
          <div className="center-block">
            {old.isError ? (
              <EmptyState icon={<Eye size={28} />} title="This version could not be loaded" />
            ) : (
              <Spinner label={`Loading version ${viewedVersion}`} />
            )}
          </div>
        ) : (
          <AssessmentView assessment={shown!} />
        )}
      </div>
      <aside className="assessment-layout__aside" aria-label="Versions">
        <VersionHistory
          versions={versions.data ?? []}
          loading={versions.isLoading}
          viewing={oldView ? viewedVersion : (assessment?.version ?? null)}
          onView={(version) =>
            setMode(version === assessment!.version ? { kind: 'read' } : { kind: 'version', version })
          }
          onActivate={setActivateTarget}
        />
      </aside>
      <ConfirmDialog
        open={activateTarget !== null}
        title="Make Version Current"
        message={
          <p>
            Make version {activateTarget} the current version? Students who start the assessment from now on
            take it. Nothing is rewritten: every other version stays in the history.
          </p>
        }
        confirmLabel="Make Current"
        busy={activating}
        onConfirm={confirmActivate}
        onCancel={() => setActivateTarget(null)}
      />
    </div>
  );
}

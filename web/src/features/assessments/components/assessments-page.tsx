import { useEffect, useRef, useState } from 'react';
import { useSelector } from 'react-redux';
import { ClipboardList, Eye, Plus } from 'lucide-react';
import { Button, Card, EmptyState, Spinner } from '../../../components/ui';
import { isHttpError } from '../../../lib/errors';
import { notifyFailure } from '../../../lib/toast';
import { selectIsSuperAdmin } from '../../auth/api/session';
import { blankAssessment } from '../api/assessment-schema';
import {
  useGetAssessmentQuery,
  useGetAssessmentVersionQuery,
  useGetAssessmentVersionsQuery,
} from '../api/assessments-api';
import { ActivateVersionDialog } from './activate-version-dialog';
import { AssessmentEditor } from './assessment-editor';
import { AssessmentView } from './assessment-view';
import { VersionHeading } from './version-heading';
import { VersionHistory } from './version-history';

type Mode = { kind: 'read' } | { kind: 'edit' } | { kind: 'version'; version: number };

export function AssessmentsPage() {
  const isSuperAdmin = useSelector(selectIsSuperAdmin);
  const current = useGetAssessmentQuery();
  const versions = useGetAssessmentVersionsQuery();
  const [mode, setMode] = useState<Mode>({ kind: 'read' });
  const [activateTarget, setActivateTarget] = useState<number | null>(null);
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
        <VersionHeading
          headingRef={heading}
          title={assessment!.title}
          currentVersion={assessment!.version}
          oldVersion={oldView ? viewedVersion : null}
          onEdit={() => setMode({ kind: 'edit' })}
          onBack={() => setMode({ kind: 'read' })}
          onActivate={setActivateTarget}
        />
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
      <ActivateVersionDialog
        version={activateTarget}
        onClose={() => setActivateTarget(null)}
        onActivated={() => setMode({ kind: 'read' })}
      />
    </div>
  );
}

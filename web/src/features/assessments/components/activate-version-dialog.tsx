import { ConfirmDialog } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import { useActivateAssessmentVersionMutation } from '../api/assessments-api';

interface ActivateVersionDialogProps {
  /** The version asked about; the dialog is closed while there is none. */
  version: number | null;
  onClose: () => void;
  onActivated: () => void;
}

/** Asks before an earlier version becomes the current one. */
export function ActivateVersionDialog({ version, onClose, onActivated }: ActivateVersionDialogProps) {
  const [activate, { isLoading: activating }] = useActivateAssessmentVersionMutation();
  const confirmActivate = async () => {
    if (version === null) return;
    try {
      await activate(version).unwrap();
      notify.success(`Version ${version} is now the current version`);
      onClose();
      onActivated();
    } catch (err) {
      notifyFailure(err, 'Failed to update assessment');
    }
  };
  return (
    <ConfirmDialog
      open={version !== null}
      title="Make Version Current"
      message={
        <p>
          Make version {version} the current version? Students who start the assessment from now on take it.
          Nothing is rewritten: every other version stays in the history.
        </p>
      }
      confirmLabel="Make Current"
      busy={activating}
      onConfirm={confirmActivate}
      onCancel={onClose}
    />
  );
}

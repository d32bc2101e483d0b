import { ConfirmDialog } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { useActivateAssessmentVersionMutation } from '../api/assessments-api';

interface ActivateVersionDialogProps {
  /** The version asked about; the dialog is closed while there is none. */
  version: number | null;
  onClose: () => void;
  onActivated: () => void;
}

/** Asks before an earlier version becomes the current one. */
export function ActivateVersionDialog({ version, onClose, onActivated }: ActivateVersionDialogProps) {
  const t = useAdminT();
  const [activate, { isLoading: activating }] = useActivateAssessmentVersionMutation();
  const confirmActivate = async () => {
    if (version === null) return;
    try {
      await activate(version).unwrap();
      notify.success(adminT('assessments.activate.success', { version }));
      onClose();
      onActivated();
    } catch (err) {
      notifyFailure(err, adminT('assessments.updateFailed'));
    }
  };
  return (
    <ConfirmDialog
      open={version !== null}
      title={t('assessments.activate.title')}
      message={<p>{t('assessments.activate.message', { version })}</p>}
      confirmLabel={t('assessments.version.makeCurrent')}
      busy={activating}
      onConfirm={confirmActivate}
      onCancel={onClose}
    />
  );
}

import { ConfirmDialog, FormModal, NumberInput } from '../../../components/ui';
import { useDialogForm } from '../../../lib/forms';
import { notify, notifyFailure } from '../../../lib/toast';
import { AdminT, adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import {
  addTimeSchema,
  useEndAttemptMutation,
  useExtendAttemptMutation,
  type LiveAttempt,
} from '../api/live-api';

interface AttemptDialogProps {
  /** The attempt acted on; the dialog is closed while there is none. */
  attempt: LiveAttempt | null;
  onClose: () => void;
}

const DEFAULT_MINUTES = 10;

export function AddTimeDialog({ attempt, onClose }: AttemptDialogProps) {
  const t = useAdminT();
  const [extend, { isLoading }] = useExtendAttemptMutation();
  const { field, modal } = useDialogForm({
    schema: addTimeSchema,
    openFor: attempt,
    values: () => ({ minutes: DEFAULT_MINUTES }),
    save: async ({ minutes }, { attemptId }) => (await extend({ attemptId, minutes }).unwrap()).message,
    failure: t('live.addTime.failed'),
    onClose,
  });

  return (
    <FormModal
      {...modal}
      title={t('live.addTime.title')}
      submitLabel={t('live.addTime.confirm')}
      busy={isLoading}
      size="sm"
    >
      <p className="muted">{t('live.addTime.text', { name: attempt?.name ?? '' })}</p>
      <NumberInput
        label={t('live.addTime.minutes')}
        min={1}
        max={600}
        step={1}
        {...field('minutes', { valueAsNumber: true })}
      />
    </FormModal>
  );
}

export function EndAttemptDialog({ attempt, onClose }: AttemptDialogProps) {
  const t = useAdminT();
  const [end, { isLoading }] = useEndAttemptMutation();
  const confirmEnd = async () => {
    if (!attempt) return;
    try {
      notify.success((await end(attempt.attemptId).unwrap()).message);
      onClose();
    } catch (err) {
      notifyFailure(err, adminT('live.end.failed'));
    }
  };
  return (
    <ConfirmDialog
      open={attempt !== null}
      title={t('live.end.title')}
      tone="danger"
      message={
        <p>
          <AdminT
            id={'live.end.message'}
            values={{ name: attempt?.name ?? '' }}
            components={{ 0: <strong /> }}
          />
        </p>
      }
      confirmLabel={t('live.end.confirm')}
      busy={isLoading}
      onConfirm={confirmEnd}
      onCancel={onClose}
    />
  );
}

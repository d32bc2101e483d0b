import { ConfirmDialog, FormModal, NumberInput } from '../../../components/ui';
import { useDialogForm } from '../../../lib/forms';
import { notify, notifyFailure } from '../../../lib/toast';
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
  const [extend, { isLoading }] = useExtendAttemptMutation();
  const { field, modal } = useDialogForm({
    schema: addTimeSchema,
    openFor: attempt,
    values: () => ({ minutes: DEFAULT_MINUTES }),
    save: async ({ minutes }, { attemptId }) => (await extend({ attemptId, minutes }).unwrap()).message,
    failure: 'Failed to add time',
    onClose,
  });

  return (
    <FormModal {...modal} title="Add time" submitLabel="Confirm" busy={isLoading} size="sm">
      <p className="muted">
        Add time to {attempt?.name}&apos;s attempt. Their page shows the new time within a few seconds.
      </p>
      <NumberInput
        label="Minutes to add"
        min={1}
        max={600}
        step={1}
        {...field('minutes', { valueAsNumber: true })}
      />
    </FormModal>
  );
}

export function EndAttemptDialog({ attempt, onClose }: AttemptDialogProps) {
  const [end, { isLoading }] = useEndAttemptMutation();
  const confirmEnd = async () => {
    if (!attempt) return;
    try {
      notify.success((await end(attempt.attemptId).unwrap()).message);
      onClose();
    } catch (err) {
      notifyFailure(err, 'Failed to end the attempt');
    }
  };
  return (
    <ConfirmDialog
      open={attempt !== null}
      title="End attempt"
      tone="danger"
      message={
        <p>
          <strong>{attempt?.name}</strong>&apos;s attempt ends now and is scored from their last saved
          answers. This cannot be undone.
        </p>
      }
      confirmLabel="End attempt"
      busy={isLoading}
      onConfirm={confirmEnd}
      onCancel={onClose}
    />
  );
}

import { Button } from './button';

interface DialogActionsProps {
  submitLabel: string;
  busy: boolean;
  onCancel: () => void;
  /** Submits this form; without it, `onSubmit` runs. */
  formId?: string;
  onSubmit?: () => void;
  disabled?: boolean;
}

/** A dialog's footer: Cancel, then the action, which shows its progress while busy. */
export function DialogActions({
  submitLabel,
  busy,
  onCancel,
  formId,
  onSubmit,
  disabled,
}: DialogActionsProps) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button
        type={formId ? 'submit' : 'button'}
        form={formId}
        onClick={onSubmit}
        loading={busy}
        disabled={disabled}
      >
        {submitLabel}
      </Button>
    </>
  );
}

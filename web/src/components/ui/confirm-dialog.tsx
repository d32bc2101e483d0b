import type { ReactNode } from 'react';
import { ActionModal, type ActionModalProps } from './action-modal';

interface ConfirmDialogProps extends Pick<
  ActionModalProps,
  'open' | 'title' | 'cancelLabel' | 'tone' | 'closeLabel'
> {
  message: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before an action that sends e-mail or destroys data (SPEC §8 confirmations). */
export function ConfirmDialog({
  message,
  confirmLabel,
  busy = false,
  onConfirm,
  onCancel,
  ...dialog
}: ConfirmDialogProps) {
  return (
    <ActionModal
      {...dialog}
      onClose={onCancel}
      size="sm"
      busy={busy}
      submitLabel={confirmLabel}
      onSubmit={onConfirm}
    >
      <div className="confirm__message">{message}</div>
    </ActionModal>
  );
}

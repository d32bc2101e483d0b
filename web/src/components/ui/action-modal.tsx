import { useId, type FormEventHandler, type ReactNode } from 'react';
import { Button } from './button';
import { Modal } from './modal';
import { useUiWords } from './words';

export interface ActionModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  submitLabel: string;
  cancelLabel?: string;
  tone?: 'primary' | 'danger';
  /** While busy the action shows its progress and the dialog cannot be dismissed. */
  busy: boolean;
  /** Submits this form; without it, `onSubmit` runs. */
  formId?: string;
  onSubmit?: () => void;
  disabled?: boolean;
  size?: 'sm' | 'md';
  /** The close button's name (the Modal's default, 'Close', when not given). */
  closeLabel?: string;
  children: ReactNode;
}

/** A dialog with one action: its footer is Cancel, which closes it, then the action. */
export function ActionModal({
  open,
  title,
  onClose,
  submitLabel,
  cancelLabel,
  tone,
  busy,
  formId,
  onSubmit,
  disabled,
  size,
  closeLabel,
  children,
}: ActionModalProps) {
  const words = useUiWords();
  return (
    <Modal
      open={open}
      title={title}
      onClose={onClose}
      dismissible={!busy}
      size={size}
      closeLabel={closeLabel}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {cancelLabel ?? words.cancel}
          </Button>
          <Button
            variant={tone}
            type={formId ? 'submit' : 'button'}
            form={formId}
            onClick={onSubmit}
            loading={busy}
            disabled={disabled}
          >
            {submitLabel}
          </Button>
        </>
      }
    >
      {children}
    </Modal>
  );
}

interface FormModalProps extends Omit<ActionModalProps, 'formId' | 'onSubmit' | 'disabled'> {
  onSubmit: FormEventHandler<HTMLFormElement>;
}

/** An ActionModal whose body is one form, which its action submits; the form leaves checking to its code. */
export function FormModal({ onSubmit, children, ...modal }: FormModalProps) {
  const formId = useId();
  return (
    <ActionModal {...modal} formId={formId}>
      <form id={formId} className="form" onSubmit={onSubmit} noValidate>
        {children}
      </form>
    </ActionModal>
  );
}

import { ConfirmDialog } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import { useDeleteStudentMutation, useResendInvitationMutation } from '../api/students-api';
import type { Student } from '../api/types';

interface StudentDialogProps {
  /** The student asked about; the dialog is closed while there is none. */
  student: Student | null;
  onClose: () => void;
}

export function ResendInvitationDialog({ student, onClose }: StudentDialogProps) {
  const [resend, { isLoading: resending }] = useResendInvitationMutation();
  const confirmResend = async () => {
    if (!student) return;
    try {
      await resend(student._id).unwrap();
      notify.success(`Invitation sent to ${student.name}`);
      onClose();
    } catch (err) {
      notifyFailure(err, 'Failed to resend assessment invitation');
    }
  };
  return (
    <ConfirmDialog
      open={student !== null}
      title="Resend Invitation"
      message={
        <p>
          Send the assessment invitation to <strong>{student?.name}</strong> ({student?.email}) again? The
          link stays the same and is valid again for its full period.
        </p>
      }
      confirmLabel="Resend Invitation"
      busy={resending}
      onConfirm={confirmResend}
      onCancel={onClose}
    />
  );
}

export function DeleteStudentDialog({ student, onClose }: StudentDialogProps) {
  const [remove, { isLoading: deleting }] = useDeleteStudentMutation();
  const confirmDelete = async () => {
    if (!student) return;
    try {
      await remove(student._id).unwrap();
      notify.success('Student deleted successfully');
      onClose();
    } catch (err) {
      notifyFailure(err, 'Failed to delete student');
    }
  };
  return (
    <ConfirmDialog
      open={student !== null}
      title="Delete Student"
      tone="danger"
      message={
        <>
          <p>
            Delete <strong>{student?.name}</strong> ({student?.email})?
          </p>
          <p className="muted">
            Their invitation, attempts, answers, results and certificates are erased everywhere. This cannot
            be undone.
          </p>
        </>
      }
      confirmLabel="Delete Student"
      busy={deleting}
      onConfirm={confirmDelete}
      onCancel={onClose}
    />
  );
}

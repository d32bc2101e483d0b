import { ConfirmDialog } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import { AdminT, adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { useDeleteStudentMutation, useResendInvitationMutation } from '../api/students-api';
import type { Student } from '../api/types';

interface StudentDialogProps {
  /** The student asked about; the dialog is closed while there is none. */
  student: Student | null;
  onClose: () => void;
}

export function ResendInvitationDialog({ student, onClose }: StudentDialogProps) {
  const t = useAdminT();
  const [resend, { isLoading: resending }] = useResendInvitationMutation();
  const confirmResend = async () => {
    if (!student) return;
    try {
      await resend(student._id).unwrap();
      notify.success(adminT('students.resend.sent', { name: student.name }));
      onClose();
    } catch (err) {
      notifyFailure(err, adminT('students.resend.failed'));
    }
  };
  return (
    <ConfirmDialog
      open={student !== null}
      title={t('students.resend.title')}
      message={
        <p>
          <AdminT
            id={'students.resend.confirm'}
            values={{ name: student?.name ?? '', email: student?.email ?? '' }}
            components={{ 0: <strong /> }}
          />
        </p>
      }
      confirmLabel={t('students.resend.confirmLabel')}
      busy={resending}
      onConfirm={confirmResend}
      onCancel={onClose}
    />
  );
}

export function DeleteStudentDialog({ student, onClose }: StudentDialogProps) {
  const t = useAdminT();
  const [remove, { isLoading: deleting }] = useDeleteStudentMutation();
  const confirmDelete = async () => {
    if (!student) return;
    try {
      await remove(student._id).unwrap();
      notify.success(adminT('students.delete.done'));
      onClose();
    } catch (err) {
      notifyFailure(err, adminT('students.delete.failed'));
    }
  };
  return (
    <ConfirmDialog
      open={student !== null}
      title={t('students.delete.title')}
      tone="danger"
      message={
        <>
          <p>
            <AdminT
              id={'students.delete.confirm'}
              values={{ name: student?.name ?? '', email: student?.email ?? '' }}
              components={{ 0: <strong /> }}
            />
          </p>
          <p className="muted">{t('students.delete.warning')}</p>
        </>
      }
      confirmLabel={t('students.delete.confirmLabel')}
      busy={deleting}
      onConfirm={confirmDelete}
      onCancel={onClose}
    />
  );
}

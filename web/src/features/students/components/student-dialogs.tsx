import { ConfirmDialog } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import { AdminT, adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import {
  useDeleteStudentMutation,
  useRemindStudentMutation,
  useRemindStudentsMutation,
  useResendInvitationMutation,
  type StudentListQuery,
} from '../api/students-api';
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

export function RemindStudentDialog({ student, onClose }: StudentDialogProps) {
  const t = useAdminT();
  const [remind, { isLoading: reminding }] = useRemindStudentMutation();
  const confirmRemind = async () => {
    if (!student) return;
    try {
      await remind(student._id).unwrap();
      notify.success(adminT('students.remind.sent', { name: student.name }));
      onClose();
    } catch (err) {
      // A 409 says why (started, expired, reminded today) in the service's words.
      notifyFailure(err, adminT('students.remind.failed'));
      onClose();
    }
  };
  return (
    <ConfirmDialog
      open={student !== null}
      title={t('students.remind.title')}
      message={
        <p>
          <AdminT
            id={'students.remind.confirm'}
            values={{ name: student?.name ?? '', email: student?.email ?? '' }}
            components={{ 0: <strong /> }}
          />
        </p>
      }
      confirmLabel={t('students.remind.confirmLabel')}
      busy={reminding}
      onConfirm={confirmRemind}
      onCancel={onClose}
    />
  );
}

/**
 * "Send a reminder now" for every student of the list's filter: asked with how many that is (the service's dry
 * run), sent on confirmation.
 */
export function RemindAllDialog({
  filter,
  count,
  onClose,
}: {
  /** The list's filter when the button was pressed. */
  filter: Pick<StudentListQuery, 'search' | 'status'>;
  /** How many the dry run found; the dialog is closed while there is no count. */
  count: number | null;
  onClose: () => void;
}) {
  const t = useAdminT();
  const [remindAll, { isLoading: reminding }] = useRemindStudentsMutation();
  const confirm = async () => {
    try {
      const sent = await remindAll({ ...filter, dryRun: false }).unwrap();
      notify.success(adminT('students.remindAll.sent', { count: sent }));
    } catch (err) {
      notifyFailure(err, adminT('students.remindAll.failed'));
    }
    onClose();
  };
  return (
    <ConfirmDialog
      open={count !== null}
      title={t('students.remind.title')}
      message={<p>{t('students.remindAll.confirm', { count: count ?? 0 })}</p>}
      confirmLabel={t('students.remindAll.confirmLabel', { count: count ?? 0 })}
      busy={reminding}
      onConfirm={confirm}
      onCancel={onClose}
    />
  );
}

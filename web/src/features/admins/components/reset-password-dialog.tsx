import { ConfirmDialog } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import type { Admin } from '../../auth/api/types';
import { useResetAdminPasswordMutation } from '../api/admins-api';

/** Asks before an admin's password is replaced by a mailed temporary one; shows the server's answer. */
export function ResetPasswordDialog({ admin, onClose }: { admin: Admin | null; onClose: () => void }) {
  const [resetPassword, { isLoading: resetting }] = useResetAdminPasswordMutation();
  const confirmReset = async () => {
    if (!admin) return;
    try {
      notify.success(await resetPassword(admin._id).unwrap());
      onClose();
    } catch (err) {
      notifyFailure(err, 'Failed to reset password');
    }
  };
  return (
    <ConfirmDialog
      open={admin !== null}
      title="Reset Password"
      message={
        <>
          <p>
            Reset the password of <strong>{admin?.name}</strong>?
          </p>
          <p className="muted">
            A new temporary password will be e-mailed to {admin?.email}. Their current password stops working
            at once.
          </p>
        </>
      }
      confirmLabel="Reset Password"
      busy={resetting}
      onConfirm={confirmReset}
      onCancel={onClose}
    />
  );
}

import { ConfirmDialog } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import type { Admin } from '../../auth/api/types';
import { useResetAdminPasswordMutation } from '../api/admins-api';
import { AdminT, adminT, useAdminT } from '../../../i18n/admin/admin-i18n';

/** Asks before an admin's password is replaced by a mailed temporary one; shows the server's answer. */
export function ResetPasswordDialog({ admin, onClose }: { admin: Admin | null; onClose: () => void }) {
  const t = useAdminT();
  const [resetPassword, { isLoading: resetting }] = useResetAdminPasswordMutation();
  const confirmReset = async () => {
    if (!admin) return;
    try {
      notify.success(await resetPassword(admin._id).unwrap());
      onClose();
    } catch (err) {
      notifyFailure(err, adminT('admins.resetPassword.failure'));
    }
  };
  return (
    <ConfirmDialog
      open={admin !== null}
      title={t('admins.resetPassword.title')}
      message={
        <>
          <p>
            <AdminT
              id={'admins.resetPassword.confirm'}
              values={{ name: admin?.name }}
              components={{ 0: <strong /> }}
            />
          </p>
          <p className="muted">{t('admins.resetPassword.consequence', { email: admin?.email })}</p>
        </>
      }
      confirmLabel={t('admins.resetPassword.submit')}
      busy={resetting}
      onConfirm={confirmReset}
      onCancel={onClose}
    />
  );
}

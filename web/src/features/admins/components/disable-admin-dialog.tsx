import { ConfirmDialog } from '../../../components/ui';
import type { Admin } from '../../auth/api/types';
import { AdminT, useAdminT } from '../../../i18n/admin/admin-i18n';

/** Asks before an admin is disabled, naming them and what it does: their sessions end and they cannot sign in. */
export function DisableAdminDialog({
  admin,
  busy,
  onConfirm,
  onClose,
}: {
  admin: Admin | null;
  busy: boolean;
  onConfirm: (admin: Admin) => void;
  onClose: () => void;
}) {
  const t = useAdminT();
  return (
    <ConfirmDialog
      open={admin !== null}
      tone="danger"
      title={t('admins.disable.title')}
      message={
        <>
          <p>
            <AdminT
              id={'admins.disable.confirm'}
              values={{ name: admin?.name }}
              components={{ 0: <strong /> }}
            />
          </p>
          <p className="muted">{t('admins.disable.consequence')}</p>
        </>
      }
      confirmLabel={t('admins.disable.submit')}
      busy={busy}
      onConfirm={() => admin && onConfirm(admin)}
      onCancel={onClose}
    />
  );
}

import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import { useResetAdminFactorsMutation } from '../../auth/api/multi-factor-api';
import type { Admin } from '../../auth/api/types';
import { AdminT, adminT, useAdminT } from '../../../i18n/admin/admin-i18n';

/**
 * Resetting an admin's second factors (a lost phone), after a confirmation: `ask(admin)` opens it, `dialog`
 * is placed once on the page.
 */
export function useResetFactorsDialog() {
  const t = useAdminT();
  const [target, setTarget] = useState<Admin | null>(null);
  const [resetFactors, { isLoading }] = useResetAdminFactorsMutation();

  const confirm = async () => {
    if (!target) return;
    try {
      await resetFactors(target._id).unwrap();
      notify.success(adminT('admins.resetFactors.success', { name: target.name }));
      setTarget(null);
    } catch (err) {
      notifyFailure(err, adminT('admins.resetFactors.failure'));
    }
  };

  const dialog = (
    <ConfirmDialog
      open={target !== null}
      title={t('admins.resetFactors.title')}
      message={
        <>
          <p>
            <AdminT
              id={'admins.resetFactors.confirm'}
              values={{ name: target?.name }}
              components={{ 0: <strong /> }}
            />
          </p>
          <p className="muted">{t('admins.resetFactors.consequence')}</p>
        </>
      }
      confirmLabel={t('admins.resetFactors.submit')}
      tone="danger"
      busy={isLoading}
      onConfirm={confirm}
      onCancel={() => setTarget(null)}
    />
  );
  return { ask: setTarget, dialog };
}

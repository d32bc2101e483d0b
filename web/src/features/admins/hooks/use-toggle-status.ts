import { useState } from 'react';
import { notify, notifyFailure } from '../../../lib/toast';
import type { Admin } from '../../auth/api/types';
import { useSetAdminStatusMutation } from '../api/admins-api';
import { adminT } from '../../../i18n/admin/admin-i18n';

/** SPEC §4: disable when active, enable when disabled; `togglingId` is the admin being changed. */
export function useToggleStatus() {
  const [setStatus] = useSetAdminStatusMutation();
  const [togglingId, setTogglingId] = useState<string | null>(null);
  const toggleStatus = async (admin: Admin) => {
    const next = admin.status === 'active' ? 'disabled' : 'active';
    setTogglingId(admin._id);
    try {
      await setStatus({ id: admin._id, status: next }).unwrap();
      notify.success(
        next === 'active' ? adminT('admins.status.enabled') : adminT('admins.status.disabledDone'),
      );
    } catch (err) {
      notifyFailure(err, adminT('admins.status.failure'), { serverMessage: false });
    } finally {
      setTogglingId(null);
    }
  };
  return { togglingId, toggleStatus };
}

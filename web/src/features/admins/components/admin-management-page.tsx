import { useEffect, useMemo, useState } from 'react';
import { useSelector } from 'react-redux';
import { UserPlus, Users } from 'lucide-react';
import { Button, ButtonLink, Card, ListTable, SearchInput, matchesNameOrEmail } from '../../../components/ui';
import { notifyFailure } from '../../../lib/toast';
import { selectAdmin } from '../../auth/api/session';
import type { Admin } from '../../auth/api/types';
import { useGetAdminsQuery } from '../api/admins-api';
import { useToggleStatus } from '../hooks/use-toggle-status';
import { RELATED_SCREENS } from '../api/related-screens';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';

import { adminColumns } from './admin-columns';
import { CreateAdminModal, EditAdminModal } from './admin-form-modals';
import { AdminStatCards } from './admin-stats';
import { DisableAdminDialog } from './disable-admin-dialog';
import { ResetPasswordDialog } from './reset-password-dialog';
import { useResetFactorsDialog } from './reset-factors-dialog';

export function AdminManagementPage() {
  const t = useAdminT();
  const me = useSelector(selectAdmin);
  const { data: admins = [], isLoading, error: loadError } = useGetAdminsQuery();
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Admin | null>(null);
  const [resetTarget, setResetTarget] = useState<Admin | null>(null);
  const [disableTarget, setDisableTarget] = useState<Admin | null>(null);
  const { togglingId, toggleStatus } = useToggleStatus();
  const resetFactors = useResetFactorsDialog();

  useEffect(() => {
    if (loadError) notifyFailure(loadError, adminT('admins.loadFailed'), { serverMessage: false });
  }, [loadError]);

  const visible = useMemo(() => admins.filter((a) => matchesNameOrEmail(a, search)), [admins, search]);
  const columns = adminColumns({
    meId: me?._id,
    togglingId,
    onEdit: setEditing,
    onReset: setResetTarget,
    onResetFactors: resetFactors.ask,
    // Disabling ends the admin's sessions, so it is asked first; enabling is not.
    onToggle: (a) => (a.status === 'active' ? setDisableTarget(a) : void toggleStatus(a)),
    t,
  });

  return (
    <div className="stack">
      <AdminStatCards admins={admins} />

      <Card
        title={t('admins.list.title')}
        actions={
          <Button icon={<UserPlus size={18} aria-hidden="true" />} onClick={() => setCreating(true)}>
            {t('admins.list.add')}
          </Button>
        }
      >
        <div className="toolbar">
          <SearchInput
            label={t('admins.list.searchLabel')}
            placeholder={t('admins.list.searchPlaceholder')}
            value={search}
            onChange={setSearch}
          />
          {RELATED_SCREENS.map(({ to, labelId, Icon }) => (
            <ButtonLink key={to} to={to} variant="secondary" icon={<Icon size={18} aria-hidden="true" />}>
              {t(labelId)}
            </ButtonLink>
          ))}
        </div>
        <ListTable
          loading={isLoading}
          loadingLabel={t('admins.list.loading')}
          caption={t('admins.list.title')}
          columns={columns}
          rows={visible}
          rowKey={(a) => a._id}
          empty={{
            icon: <Users size={28} />,
            title: t('admins.list.empty'),
            description: search ? t('admins.list.noMatch') : undefined,
          }}
        />
      </Card>

      <CreateAdminModal open={creating} onClose={() => setCreating(false)} />
      <EditAdminModal admin={editing} onClose={() => setEditing(null)} />
      <ResetPasswordDialog admin={resetTarget} onClose={() => setResetTarget(null)} />
      <DisableAdminDialog
        admin={disableTarget}
        busy={togglingId !== null}
        onConfirm={(a) => void toggleStatus(a).finally(() => setDisableTarget(null))}
        onClose={() => setDisableTarget(null)}
      />
      {resetFactors.dialog}
    </div>
  );
}

import { KeyRound, Pencil, Power, PowerOff, ShieldOff } from 'lucide-react';
import { actionsColumn, Badge, IconButton, type Column, personColumn } from '../../../components/ui';
import { formatDate, formatDateTime } from '../../../lib/format';
import type { Admin } from '../../auth/api/types';
import { ROLE_OPTIONS } from '../api/admins-api';
import type { AdminTranslate } from '../../../i18n/admin/admin-i18n';

const roleLabel = (t: AdminTranslate, role: Admin['role']) => {
  const option = ROLE_OPTIONS.find((o) => o.value === role);
  return option ? t(option.labelId) : role;
};

interface AdminRowActions {
  /** The signed-in admin: marked "(you)", and unable to disable themselves. */
  meId: string | undefined;
  togglingId: string | null;
  onEdit: (admin: Admin) => void;
  onReset: (admin: Admin) => void;
  /** Resets the admin's second factors (shown only for an admin who has one). */
  onResetFactors: (admin: Admin) => void;
  onToggle: (admin: Admin) => void;
  /** The admin catalogue, from the page. */
  t: AdminTranslate;
}

/** The Administrators table's columns, with each row's Edit, Reset password, Reset two-factor and Disable/Enable. */
export function adminColumns({
  meId,
  togglingId,
  onEdit,
  onReset,
  onResetFactors,
  onToggle,
  t,
}: AdminRowActions): Column<Admin>[] {
  return [
    personColumn('admin', t('admins.table.admin'), (a: Admin) => ({
      name: a.name,
      email: a.email,
      nameSuffix: a._id === meId && <span className="person__you">{t('admins.table.you')}</span>,
    })),
    {
      key: 'role',
      header: t('admins.table.role'),
      render: (a) => (
        <Badge tone={a.role === 'super_admin' ? 'accent' : 'info'}>{roleLabel(t, a.role)}</Badge>
      ),
    },
    {
      key: 'status',
      header: t('admins.table.status'),
      render: (a) => (
        <Badge tone={a.status === 'active' ? 'success' : 'danger'}>
          {a.status === 'active' ? t('admins.status.active') : t('admins.status.disabled')}
        </Badge>
      ),
    },
    {
      key: 'lastLogin',
      header: t('admins.table.lastLogin'),
      render: (a) => formatDateTime(a.lastLogin, t('admins.table.neverLoggedIn')),
    },
    {
      key: 'createdAt',
      header: t('admins.table.created'),
      render: (a) => formatDate(a.createdAt),
      priority: 'low',
    },
    actionsColumn((a) => {
      const isMe = a._id === meId;
      const active = a.status === 'active';
      return (
        <>
          <IconButton
            label={t('admins.actions.edit', { name: a.name })}
            icon={<Pencil size={16} />}
            onClick={() => onEdit(a)}
          />
          <IconButton
            label={t('admins.actions.resetPassword', { name: a.name })}
            icon={<KeyRound size={16} />}
            onClick={() => onReset(a)}
          />
          {a.mfaEnabled && (
            <IconButton
              label={t('admins.actions.resetFactors', { name: a.name })}
              icon={<ShieldOff size={16} />}
              onClick={() => onResetFactors(a)}
            />
          )}
          <IconButton
            label={
              active
                ? t('admins.actions.disable', { name: a.name })
                : t('admins.actions.enable', { name: a.name })
            }
            icon={active ? <PowerOff size={16} /> : <Power size={16} />}
            className={active ? 'btn--danger-text' : 'btn--success-text'}
            loading={togglingId === a._id}
            // Locking oneself out leaves nobody able to undo it from this screen.
            disabled={isMe}
            title={isMe ? t('admins.actions.cannotDisableSelf') : undefined}
            onClick={() => onToggle(a)}
          />
        </>
      );
    }, t('common.actions')),
  ];
}

import { KeyRound, Pencil, Power, PowerOff, ShieldOff } from 'lucide-react';
import { actionsColumn, Badge, IconButton, Person, type Column } from '../../../components/ui';
import { formatDate, formatDateTime } from '../../../lib/format';
import type { Admin } from '../../auth/api/types';
import { ROLE_OPTIONS } from '../api/admins-api';

const roleLabel = (role: Admin['role']) => ROLE_OPTIONS.find((o) => o.value === role)?.label ?? role;

interface AdminRowActions {
  /** The signed-in admin: marked "(you)", and unable to disable themselves. */
  meId: string | undefined;
  togglingId: string | null;
  onEdit: (admin: Admin) => void;
  onReset: (admin: Admin) => void;
  /** Resets the admin's second factors (shown only for an admin who has one). */
  onResetFactors: (admin: Admin) => void;
  onToggle: (admin: Admin) => void;
}

/** The Administrators table's columns, with each row's Edit, Reset password, Reset two-factor and Disable/Enable. */
export function adminColumns({
  meId,
  togglingId,
  onEdit,
  onReset,
  onResetFactors,
  onToggle,
}: AdminRowActions): Column<Admin>[] {
  return [
    {
      key: 'admin',
      header: 'Admin',
      render: (a) => (
        <Person
          name={a.name}
          email={a.email}
          nameSuffix={a._id === meId && <span className="person__you"> (you)</span>}
        />
      ),
    },
    {
      key: 'role',
      header: 'Role',
      render: (a) => <Badge tone={a.role === 'super_admin' ? 'accent' : 'info'}>{roleLabel(a.role)}</Badge>,
    },
    {
      key: 'status',
      header: 'Status',
      render: (a) => (
        <Badge tone={a.status === 'active' ? 'success' : 'danger'}>
          {a.status === 'active' ? 'Active' : 'Disabled'}
        </Badge>
      ),
    },
    { key: 'lastLogin', header: 'Last Login', render: (a) => formatDateTime(a.lastLogin, 'Never') },
    { key: 'createdAt', header: 'Created', render: (a) => formatDate(a.createdAt), priority: 'low' },
    actionsColumn((a) => {
      const isMe = a._id === meId;
      const active = a.status === 'active';
      return (
        <>
          <IconButton label={`Edit ${a.name}`} icon={<Pencil size={16} />} onClick={() => onEdit(a)} />
          <IconButton
            label={`Reset password for ${a.name}`}
            icon={<KeyRound size={16} />}
            onClick={() => onReset(a)}
          />
          {a.mfaEnabled && (
            <IconButton
              label={`Reset two-factor authentication for ${a.name}`}
              icon={<ShieldOff size={16} />}
              onClick={() => onResetFactors(a)}
            />
          )}
          <IconButton
            label={`${active ? 'Disable' : 'Enable'} ${a.name}`}
            icon={active ? <PowerOff size={16} /> : <Power size={16} />}
            className={active ? 'btn--danger-text' : 'btn--success-text'}
            loading={togglingId === a._id}
            // Locking oneself out leaves nobody able to undo it from this screen.
            disabled={isMe}
            title={isMe ? 'You cannot disable your own account' : undefined}
            onClick={() => onToggle(a)}
          />
        </>
      );
    }),
  ];
}

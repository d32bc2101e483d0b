import { useEffect, useMemo, useState } from 'react';
import { useSelector } from 'react-redux';
import {
  KeyRound,
  Pencil,
  Power,
  PowerOff,
  ShieldOff,
  ShieldCheck,
  UserCheck,
  UserPlus,
  Users,
  UserX,
} from 'lucide-react';
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  EmptyState,
  IconButton,
  Person,
  SearchInput,
  Spinner,
  StatCard,
  Table,
  matchesNameOrEmail,
  type Column,
} from '../../../components/ui';
import { formatDate, formatDateTime } from '../../../lib/format';
import { notify, notifyFailure } from '../../../lib/toast';
import { selectAdmin } from '../../auth/api/session';
import type { Admin } from '../../auth/api/types';
import {
  ROLE_OPTIONS,
  useGetAdminsQuery,
  useResetAdminPasswordMutation,
  useSetAdminStatusMutation,
} from '../api/admins-api';
import { CreateAdminModal, EditAdminModal } from './admin-form-modals';
import { useResetFactorsDialog } from './reset-factors-dialog';

const roleLabel = (role: Admin['role']) => ROLE_OPTIONS.find((o) => o.value === role)?.label ?? role;

export function AdminManagementPage() {
  const me = useSelector(selectAdmin);
  const { data: admins = [], isLoading, error: loadError } = useGetAdminsQuery();
  const [resetPassword, { isLoading: resetting }] = useResetAdminPasswordMutation();
  const [setStatus] = useSetAdminStatusMutation();
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Admin | null>(null);
  const [resetTarget, setResetTarget] = useState<Admin | null>(null);
  const resetFactors = useResetFactorsDialog();
  const [togglingId, setTogglingId] = useState<string | null>(null);

  useEffect(() => {
    if (loadError) notifyFailure(loadError, 'Failed to load admins', { serverMessage: false });
  }, [loadError]);

  const stats = useMemo(
    () => ({
      total: admins.length,
      active: admins.filter((a) => a.status === 'active').length,
      disabled: admins.filter((a) => a.status === 'disabled').length,
      superAdmins: admins.filter((a) => a.role === 'super_admin').length,
    }),
    [admins],
  );
  const visible = useMemo(() => admins.filter((a) => matchesNameOrEmail(a, search)), [admins, search]);

  const confirmReset = async () => {
    if (!resetTarget) return;
    try {
      const message = await resetPassword(resetTarget._id).unwrap();
      notify.success(message ?? `A temporary password was e-mailed to ${resetTarget.email}`);
      setResetTarget(null);
    } catch (err) {
      notifyFailure(err, 'Failed to reset password');
    }
  };

  // SPEC §4: disable when active, enable when disabled.
  const toggleStatus = async (admin: Admin) => {
    const next = admin.status === 'active' ? 'disabled' : 'active';
    setTogglingId(admin._id);
    try {
      await setStatus({ id: admin._id, status: next }).unwrap();
      notify.success(next === 'active' ? 'Admin enabled successfully' : 'Admin disabled successfully');
    } catch (err) {
      notifyFailure(err, 'Failed to update admin status', { serverMessage: false });
    } finally {
      setTogglingId(null);
    }
  };

  const columns: Column<Admin>[] = [
    {
      key: 'admin',
      header: 'Admin',
      render: (a) => (
        <Person
          name={a.name}
          email={a.email}
          nameSuffix={a._id === me?._id && <span className="person__you"> (you)</span>}
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
    {
      key: 'actions',
      header: 'Actions',
      align: 'end',
      render: (a) => {
        const isMe = a._id === me?._id;
        const active = a.status === 'active';
        return (
          <div className="row-actions">
            <IconButton label={`Edit ${a.name}`} icon={<Pencil size={16} />} onClick={() => setEditing(a)} />
            <IconButton
              label={`Reset password for ${a.name}`}
              icon={<KeyRound size={16} />}
              onClick={() => setResetTarget(a)}
            />
            {a.mfaEnabled && (
              <IconButton
                label={`Reset two-factor authentication for ${a.name}`}
                icon={<ShieldOff size={16} />}
                onClick={() => resetFactors.ask(a)}
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
              onClick={() => toggleStatus(a)}
            />
          </div>
        );
      },
    },
  ];

  return (
    <div className="stack">
      <div className="stats-grid">
        <StatCard label="Total Admins" value={stats.total} icon={<Users size={22} />} />
        <StatCard label="Active" value={stats.active} icon={<UserCheck size={22} />} tone="success" />
        <StatCard label="Disabled" value={stats.disabled} icon={<UserX size={22} />} tone="danger" />
        <StatCard
          label="Super Admins"
          value={stats.superAdmins}
          icon={<ShieldCheck size={22} />}
          tone="accent"
        />
      </div>

      <Card
        title="Administrators"
        actions={
          <Button icon={<UserPlus size={18} aria-hidden="true" />} onClick={() => setCreating(true)}>
            Add Admin
          </Button>
        }
      >
        <div className="toolbar">
          <SearchInput
            label="Search admins"
            placeholder="Search by name or email"
            value={search}
            onChange={setSearch}
          />
        </div>
        {isLoading ? (
          <div className="center-block">
            <Spinner label="Loading admins" />
          </div>
        ) : (
          <Table
            caption="Administrators"
            columns={columns}
            rows={visible}
            rowKey={(a) => a._id}
            empty={
              <EmptyState
                icon={<Users size={28} />}
                title="No admins found"
                description={search ? 'No admin matches this search.' : undefined}
              />
            }
          />
        )}
      </Card>

      <CreateAdminModal open={creating} onClose={() => setCreating(false)} />
      <EditAdminModal admin={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={resetTarget !== null}
        title="Reset Password"
        message={
          <>
            <p>
              Reset the password of <strong>{resetTarget?.name}</strong>?
            </p>
            <p className="muted">
              A new temporary password will be e-mailed to {resetTarget?.email}. Their current password stops
              working at once.
            </p>
          </>
        }
        confirmLabel="Reset Password"
        busy={resetting}
        onConfirm={confirmReset}
        onCancel={() => setResetTarget(null)}
      />
      {resetFactors.dialog}
    </div>
  );
}

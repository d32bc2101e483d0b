import { Pencil, Power, PowerOff, Trash2 } from 'lucide-react';
import { actionsColumn, Badge, IconButton, type Column } from '../../../components/ui';
import type { AdminTranslate } from '../../../i18n/admin/admin-i18n';
import type { LtiPlatform } from '../api/lti-api';

interface PlatformRowActions {
  togglingId: string | null;
  onEdit: (platform: LtiPlatform) => void;
  onToggle: (platform: LtiPlatform) => void;
  onDelete: (platform: LtiPlatform) => void;
  t: AdminTranslate;
}

/** The LMS connections table's columns, with each row's Edit, Disable/Enable and Delete. */
export function platformColumns({
  togglingId,
  onEdit,
  onToggle,
  onDelete,
  t,
}: PlatformRowActions): Column<LtiPlatform>[] {
  return [
    {
      key: 'name',
      header: t('lti.table.name'),
      render: (p) => (
        <span className="lti-cell__name">
          <bdi>{p.name}</bdi>
        </span>
      ),
    },
    {
      key: 'issuer',
      header: t('lti.table.issuer'),
      render: (p) => <span className="lti-cell__wrap">{p.issuer}</span>,
    },
    {
      key: 'clientId',
      header: t('lti.table.clientId'),
      render: (p) => <span className="lti-cell__wrap">{p.clientId}</span>,
    },
    {
      key: 'deploymentIds',
      header: t('lti.table.deploymentIds'),
      render: (p) => <span className="lti-cell__wrap">{p.deploymentIds.join(', ')}</span>,
    },
    {
      key: 'status',
      header: t('lti.table.status'),
      render: (p) => (
        <Badge tone={p.disabled ? 'danger' : 'success'}>
          {p.disabled ? t('lti.status.disabled') : t('lti.status.active')}
        </Badge>
      ),
    },
    actionsColumn(
      (p) => (
        <>
          <IconButton
            label={t('lti.actions.edit', { name: p.name })}
            icon={<Pencil size={16} />}
            onClick={() => onEdit(p)}
          />
          <IconButton
            label={
              p.disabled
                ? t('lti.actions.enable', { name: p.name })
                : t('lti.actions.disable', { name: p.name })
            }
            icon={p.disabled ? <Power size={16} /> : <PowerOff size={16} />}
            className={p.disabled ? 'btn--success-text' : 'btn--danger-text'}
            loading={togglingId === p.id}
            onClick={() => onToggle(p)}
          />
          <IconButton
            label={t('lti.actions.delete', { name: p.name })}
            icon={<Trash2 size={16} />}
            className="btn--danger-text"
            onClick={() => onDelete(p)}
          />
        </>
      ),
      t('common.actions'),
    ),
  ];
}

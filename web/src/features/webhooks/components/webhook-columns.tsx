import { KeyRound, ListChecks, Pencil, Power, PowerOff, Send, Trash2 } from 'lucide-react';
import { actionsColumn, Badge, IconButton, type Column } from '../../../components/ui';
import { formatDateTime } from '../../../lib/format';
import type { AdminTranslate } from '../../../i18n/admin/admin-i18n';
import type { WebhookEndpoint } from '../api/webhooks-api';

interface EndpointRowActions {
  togglingId: string | null;
  testingId: string | null;
  onLog: (endpoint: WebhookEndpoint) => void;
  onTest: (endpoint: WebhookEndpoint) => void;
  onRotate: (endpoint: WebhookEndpoint) => void;
  onEdit: (endpoint: WebhookEndpoint) => void;
  onToggle: (endpoint: WebhookEndpoint) => void;
  onDelete: (endpoint: WebhookEndpoint) => void;
  t: AdminTranslate;
}

/** An endpoint's state: active, failing since a time, or disabled with the reason. */
function EndpointState({ endpoint: e, t }: { endpoint: WebhookEndpoint; t: AdminTranslate }) {
  if (e.disabled) {
    return (
      <span className="webhook-state">
        <Badge tone="danger">{t('webhooks.state.disabled')}</Badge>
        {e.disabledReason && <span className="webhook-state__reason muted">{e.disabledReason}</span>}
      </span>
    );
  }
  if (e.failingSince) {
    return (
      <Badge tone="warning">{t('webhooks.state.failing', { at: formatDateTime(e.failingSince) })}</Badge>
    );
  }
  return <Badge tone="success">{t('webhooks.state.active')}</Badge>;
}

/** The endpoints table's columns, with each row's log, test, rotation, edit, disable/enable and delete. */
export function endpointColumns(a: EndpointRowActions): Column<WebhookEndpoint>[] {
  const { t } = a;
  return [
    {
      key: 'url',
      header: t('webhooks.table.url'),
      render: (e) => <span className="webhook-cell__url">{e.url}</span>,
    },
    {
      key: 'events',
      header: t('webhooks.table.events'),
      render: (e) => (
        <ul className="webhook-cell__events">
          {e.events.map((type) => (
            <li key={type}>
              <code>{type}</code>
            </li>
          ))}
        </ul>
      ),
    },
    {
      key: 'description',
      header: t('webhooks.table.description'),
      render: (e) => <bdi>{e.description || '—'}</bdi>,
    },
    { key: 'state', header: t('webhooks.table.state'), render: (e) => <EndpointState endpoint={e} t={t} /> },
    actionsColumn(
      (e) => (
        <>
          <IconButton
            label={t('webhooks.actions.deliveries', { url: e.url })}
            icon={<ListChecks size={16} />}
            onClick={() => a.onLog(e)}
          />
          <IconButton
            label={t('webhooks.actions.test', { url: e.url })}
            icon={<Send size={16} />}
            loading={a.testingId === e.id}
            onClick={() => a.onTest(e)}
          />
          <IconButton
            label={t('webhooks.actions.rotate', { url: e.url })}
            icon={<KeyRound size={16} />}
            onClick={() => a.onRotate(e)}
          />
          <IconButton
            label={t('webhooks.actions.edit', { url: e.url })}
            icon={<Pencil size={16} />}
            onClick={() => a.onEdit(e)}
          />
          <IconButton
            label={
              e.disabled
                ? t('webhooks.actions.enable', { url: e.url })
                : t('webhooks.actions.disable', { url: e.url })
            }
            icon={e.disabled ? <Power size={16} /> : <PowerOff size={16} />}
            className={e.disabled ? 'btn--success-text' : 'btn--danger-text'}
            loading={a.togglingId === e.id}
            onClick={() => a.onToggle(e)}
          />
          <IconButton
            label={t('webhooks.actions.delete', { url: e.url })}
            icon={<Trash2 size={16} />}
            className="btn--danger-text"
            onClick={() => a.onDelete(e)}
          />
        </>
      ),
      t('common.actions'),
    ),
  ];
}

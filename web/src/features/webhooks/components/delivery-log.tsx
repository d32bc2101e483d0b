import { useEffect, useState } from 'react';
import { Inbox, RotateCw, X } from 'lucide-react';
import {
  Badge,
  Button,
  Card,
  IconButton,
  ListTable,
  type BadgeTone,
  type Column,
} from '../../../components/ui';
import { formatDateTime } from '../../../lib/format';
import { notify, notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT, type AdminTranslate } from '../../../i18n/admin/admin-i18n';
import type { AdminMessageId } from '../../../i18n/admin/en';
import {
  useGetWebhookDeliveriesQuery,
  useSendWebhookAgainMutation,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../api/webhooks-api';

const STATE: Record<WebhookDelivery['state'], { label: AdminMessageId; tone: BadgeTone }> = {
  pending: { label: 'webhooks.log.state.pending', tone: 'warning' },
  sent: { label: 'webhooks.log.state.sent', tone: 'success' },
  failed: { label: 'webhooks.log.state.failed', tone: 'danger' },
};

/** While a delivery waits, the log asks again this often, so a test event's outcome shows without a reload. */
const POLL_MS = 2000;

const timeOf = (d: WebhookDelivery) => formatDateTime(d.lastTriedAt ?? d.createdAt);

function columns(
  t: AdminTranslate,
  sendingId: string | null,
  onSendAgain: (d: WebhookDelivery) => void,
): Column<WebhookDelivery>[] {
  return [
    { key: 'event', header: t('webhooks.log.event'), render: (d) => <code>{d.eventType}</code> },
    {
      key: 'state',
      header: t('webhooks.log.state'),
      render: (d) => (
        <span className="webhook-log__state">
          <Badge tone={STATE[d.state].tone}>{t(STATE[d.state].label)}</Badge>
          {d.state === 'pending' && d.tries > 0 && (
            <span className="muted">{t('webhooks.log.nextTry', { at: formatDateTime(d.nextTryAt) })}</span>
          )}
        </span>
      ),
    },
    { key: 'tries', header: t('webhooks.log.tries'), align: 'end', render: (d) => d.tries },
    { key: 'status', header: t('webhooks.log.status'), align: 'end', render: (d) => d.lastStatus ?? '—' },
    {
      key: 'latency',
      header: t('webhooks.log.latency'),
      align: 'end',
      render: (d) => (d.lastLatencyMs === null ? '—' : t('webhooks.log.latencyMs', { ms: d.lastLatencyMs })),
    },
    { key: 'time', header: t('webhooks.log.time'), render: timeOf },
    {
      key: 'answer',
      header: t('webhooks.log.answer'),
      render: (d) =>
        d.lastAnswer === null ? (
          '—'
        ) : (
          <details className="webhook-log__answer">
            <summary>{t('webhooks.log.showAnswer')}</summary>
            <pre>{d.lastAnswer || t('webhooks.log.noAnswer')}</pre>
          </details>
        ),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      align: 'end',
      render: (d) => (
        <Button
          variant="secondary"
          size="sm"
          icon={<RotateCw size={16} aria-hidden="true" />}
          aria-label={t('webhooks.log.sendAgainLabel', { event: d.eventType, at: timeOf(d) })}
          loading={sendingId === d.id}
          onClick={() => onSendAgain(d)}
        >
          {t('webhooks.log.sendAgain')}
        </Button>
      ),
    },
  ];
}

/** One endpoint's newest deliveries, each with "Send again" (the same webhook-id). */
export function DeliveryLog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const t = useAdminT();
  const [poll, setPoll] = useState(0);
  const {
    data: deliveries = [],
    isLoading,
    error,
  } = useGetWebhookDeliveriesQuery(endpoint.id, {
    pollingInterval: poll,
  });
  const [sendAgain] = useSendWebhookAgainMutation();
  const [sendingId, setSendingId] = useState<string | null>(null);
  const waiting = deliveries.some((d) => d.state === 'pending');

  useEffect(() => setPoll(waiting ? POLL_MS : 0), [waiting]);
  useEffect(() => {
    if (error) notifyFailure(error, adminT('webhooks.log.loadFailed'), { serverMessage: false });
  }, [error]);

  const onSendAgain = async (d: WebhookDelivery) => {
    setSendingId(d.id);
    try {
      await sendAgain({ id: endpoint.id, deliveryId: d.id }).unwrap();
      notify.success(adminT('webhooks.log.sendAgainQueued'));
    } catch (err) {
      notifyFailure(err, adminT('webhooks.log.sendAgainFailed'));
    } finally {
      setSendingId(null);
    }
  };
  const title = t('webhooks.log.title', { url: endpoint.url });

  return (
    <Card
      title={title}
      className="webhook-log"
      actions={<IconButton label={t('webhooks.log.close')} icon={<X size={16} />} onClick={onClose} />}
    >
      <ListTable
        loading={isLoading}
        loadingLabel={t('webhooks.log.loading')}
        caption={title}
        columns={columns(t, sendingId, (d) => void onSendAgain(d))}
        rows={deliveries}
        rowKey={(d) => d.id}
        empty={{
          icon: <Inbox size={28} />,
          title: t('webhooks.log.empty'),
          description: t('webhooks.log.emptyHelp'),
        }}
      />
    </Card>
  );
}

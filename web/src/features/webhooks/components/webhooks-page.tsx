import { useEffect, useState } from 'react';
import { Plus, Webhook } from 'lucide-react';
import { Button, Card, ListTable } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import {
  useGetWebhooksQuery,
  useSendWebhookTestMutation,
  type EndpointWithSecret,
  type WebhookEndpoint,
} from '../api/webhooks-api';
import { DeliveryLog } from './delivery-log';
import { SecretDialog, useEndpointDelete, useEndpointToggle, useSecretRotation } from './endpoint-dialogs';
import { EndpointFormModal, type EndpointFormTarget } from './endpoint-form-modal';
import { endpointColumns } from './webhook-columns';

/**
 * Admin Management → Webhooks (super admins): the endpoints Readiness posts its events to, each with its delivery
 * log, a test event, its secret's rotation, and the secret shown once when it is made.
 */
export function WebhooksPage() {
  const t = useAdminT();
  const { data, isLoading, error: loadError } = useGetWebhooksQuery();
  const endpoints = data?.endpoints ?? [];
  const [formTarget, setFormTarget] = useState<EndpointFormTarget | null>(null);
  const [secret, setSecret] = useState<{ secret: string; rotated: boolean } | null>(null);
  const [logId, setLogId] = useState<string | null>(null);
  const [testingId, setTestingId] = useState<string | null>(null);
  const [sendTest] = useSendWebhookTestMutation();
  const toggle = useEndpointToggle();
  const remove = useEndpointDelete((id) => setLogId((shown) => (shown === id ? null : shown)));
  const rotate = useSecretRotation((rotated) => setSecret({ secret: rotated.secret, rotated: true }));
  const logOf = endpoints.find((e) => e.id === logId);

  useEffect(() => {
    if (loadError) notifyFailure(loadError, adminT('webhooks.list.loadFailed'), { serverMessage: false });
  }, [loadError]);

  const test = async (endpoint: WebhookEndpoint) => {
    setTestingId(endpoint.id);
    try {
      await sendTest(endpoint.id).unwrap();
      notify.success(adminT('webhooks.test.queued'));
      setLogId(endpoint.id);
    } catch (err) {
      notifyFailure(err, adminT('webhooks.test.failure'));
    } finally {
      setTestingId(null);
    }
  };

  const columns = endpointColumns({
    togglingId: toggle.togglingId,
    testingId,
    onLog: (e) => setLogId(e.id),
    onTest: (e) => void test(e),
    onRotate: rotate.ask,
    onEdit: setFormTarget,
    onToggle: toggle.ask,
    onDelete: remove.ask,
    t,
  });

  return (
    <div className="stack">
      <Card
        title={t('webhooks.list.title')}
        className="webhook-endpoints"
        actions={
          <Button
            icon={<Plus size={18} aria-hidden="true" />}
            onClick={() => setFormTarget({ adding: true })}
          >
            {t('webhooks.list.add')}
          </Button>
        }
      >
        <p className="muted webhooks__intro">{t('webhooks.intro')}</p>
        <ListTable
          loading={isLoading}
          loadingLabel={t('webhooks.list.loading')}
          caption={t('webhooks.list.title')}
          columns={columns}
          rows={endpoints}
          rowKey={(e) => e.id}
          empty={{
            icon: <Webhook size={28} />,
            title: t('webhooks.list.empty'),
            description: t('webhooks.list.emptyHelp'),
          }}
        />
      </Card>
      {logOf && <DeliveryLog key={logOf.id} endpoint={logOf} onClose={() => setLogId(null)} />}
      <EndpointFormModal
        target={formTarget}
        eventTypes={data?.eventTypes ?? []}
        onClose={() => setFormTarget(null)}
        onAdded={(added: EndpointWithSecret) => {
          setSecret({ secret: added.secret, rotated: false });
          setLogId(added.endpoint.id);
        }}
      />
      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
      {toggle.dialog}
      {remove.dialog}
      {rotate.dialog}
    </div>
  );
}

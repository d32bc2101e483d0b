import { useState, type ReactNode } from 'react';
import { Copy, TriangleAlert } from 'lucide-react';
import { Button, ConfirmDialog, Modal } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import { AdminT, adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import {
  fieldsOf,
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useUpdateWebhookMutation,
  type EndpointWithSecret,
  type WebhookEndpoint,
} from '../api/webhooks-api';

const WORDS = {
  disable: {
    title: 'webhooks.disable.title',
    confirm: 'webhooks.disable.confirm',
    consequence: 'webhooks.disable.consequence',
    submit: 'webhooks.disable.submit',
  },
  delete: {
    title: 'webhooks.delete.title',
    confirm: 'webhooks.delete.confirm',
    consequence: 'webhooks.delete.consequence',
    submit: 'webhooks.delete.submit',
  },
  rotate: {
    title: 'webhooks.rotate.title',
    confirm: 'webhooks.rotate.confirm',
    consequence: 'webhooks.rotate.consequence',
    submit: 'webhooks.rotate.submit',
  },
} as const;

/** Asks before an endpoint is disabled, deleted or given a new secret, naming it and what follows. */
function EndpointConfirm({
  kind,
  endpoint,
  busy,
  onConfirm,
  onCancel,
}: {
  kind: keyof typeof WORDS;
  endpoint: WebhookEndpoint | null;
  busy: boolean;
  onConfirm: (endpoint: WebhookEndpoint) => void;
  onCancel: () => void;
}) {
  const t = useAdminT();
  const words = WORDS[kind];
  return (
    <ConfirmDialog
      open={endpoint !== null}
      tone={kind === 'rotate' ? 'primary' : 'danger'}
      title={t(words.title)}
      message={
        <>
          <p className="webhook-confirm__url">
            <AdminT id={words.confirm} values={{ url: endpoint?.url }} components={{ 0: <strong /> }} />
          </p>
          <p className="muted">{t(words.consequence)}</p>
        </>
      }
      confirmLabel={t(words.submit)}
      busy={busy}
      onConfirm={() => endpoint && onConfirm(endpoint)}
      onCancel={onCancel}
    />
  );
}

/** Disabling (asked first) and enabling (at once) an endpoint: the endpoint saved with `disabled` changed. */
export function useEndpointToggle() {
  const [updateEndpoint] = useUpdateWebhookMutation();
  const [togglingId, setTogglingId] = useState<string | null>(null);
  const [target, setTarget] = useState<WebhookEndpoint | null>(null);

  const toggle = async (endpoint: WebhookEndpoint) => {
    const disabled = !endpoint.disabled;
    setTogglingId(endpoint.id);
    try {
      await updateEndpoint({ id: endpoint.id, ...fieldsOf(endpoint), disabled }).unwrap();
      notify.success(
        disabled ? adminT('webhooks.status.disabledDone') : adminT('webhooks.status.enabledDone'),
      );
    } catch (err) {
      notifyFailure(err, adminT('webhooks.status.failure'));
    } finally {
      setTogglingId(null);
      setTarget(null);
    }
  };
  const dialog = (
    <EndpointConfirm
      kind="disable"
      endpoint={target}
      busy={togglingId !== null}
      onConfirm={(e) => void toggle(e)}
      onCancel={() => setTarget(null)}
    />
  );
  const ask = (endpoint: WebhookEndpoint) =>
    endpoint.disabled ? void toggle(endpoint) : setTarget(endpoint);
  return { togglingId, ask, dialog };
}

/** Deleting an endpoint, after a confirmation; `onDeleted` hears which. */
export function useEndpointDelete(onDeleted: (id: string) => void) {
  const [target, setTarget] = useState<WebhookEndpoint | null>(null);
  const [deleteEndpoint, { isLoading }] = useDeleteWebhookMutation();
  const remove = async (endpoint: WebhookEndpoint) => {
    try {
      await deleteEndpoint(endpoint.id).unwrap();
      notify.success(adminT('webhooks.delete.success'));
      onDeleted(endpoint.id);
      setTarget(null);
    } catch (err) {
      notifyFailure(err, adminT('webhooks.delete.failure'));
    }
  };
  const dialog = (
    <EndpointConfirm
      kind="delete"
      endpoint={target}
      busy={isLoading}
      onConfirm={(e) => void remove(e)}
      onCancel={() => setTarget(null)}
    />
  );
  return { ask: setTarget, dialog };
}

/** "Rotate secret", after a confirmation; the new secret goes to `onRotated`, to be shown once. */
export function useSecretRotation(onRotated: (rotated: EndpointWithSecret) => void) {
  const [target, setTarget] = useState<WebhookEndpoint | null>(null);
  const [rotate, { isLoading }] = useRotateWebhookSecretMutation();
  const run = async (endpoint: WebhookEndpoint) => {
    try {
      onRotated(await rotate(endpoint.id).unwrap());
      setTarget(null);
    } catch (err) {
      notifyFailure(err, adminT('webhooks.rotate.failure'));
    }
  };
  const dialog = (
    <EndpointConfirm
      kind="rotate"
      endpoint={target}
      busy={isLoading}
      onConfirm={(e) => void run(e)}
      onCancel={() => setTarget(null)}
    />
  );
  return { ask: setTarget, dialog };
}

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(adminT('webhooks.secret.copied'));
  } catch {
    notify.error(adminT('webhooks.secret.copyFailed'));
  }
}

/** The secret the service answered, shown this once with a Copy button; `rotated` adds the 24-hour overlap. */
export function SecretDialog({
  shown,
  onClose,
}: {
  shown: { secret: string; rotated: boolean } | null;
  onClose: () => void;
}) {
  const t = useAdminT();
  const note = (children: ReactNode) => <p className="webhook-secret__note">{children}</p>;
  return (
    <Modal
      open={shown !== null}
      title={shown?.rotated ? t('webhooks.secret.rotatedTitle') : t('webhooks.secret.addedTitle')}
      onClose={onClose}
      footer={<Button onClick={onClose}>{t('webhooks.secret.done')}</Button>}
    >
      <div className="webhook-secret">
        <p className="webhook-secret__warning" role="note">
          <TriangleAlert size={18} aria-hidden="true" />
          <span>{t('webhooks.secret.warning')}</span>
        </p>
        <p className="webhook-secret__label">{t('webhooks.secret.label')}</p>
        <div className="webhook-secret__value">
          <code data-testid="webhook-secret">{shown?.secret}</code>
          <Button
            variant="secondary"
            size="sm"
            icon={<Copy size={16} aria-hidden="true" />}
            onClick={() => shown && void copy(shown.secret)}
          >
            {t('webhooks.secret.copy')}
          </Button>
        </div>
        {shown?.rotated && note(t('webhooks.secret.overlap'))}
      </div>
    </Modal>
  );
}

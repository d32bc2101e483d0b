import { FormModal, Input } from '../../../components/ui';
import { useDialogForm } from '../../../lib/forms';
import { useAdminT } from '../../../i18n/admin/admin-i18n';
import {
  endpointBody,
  endpointFormSchema,
  useAddWebhookMutation,
  useUpdateWebhookMutation,
  type EndpointFormInput,
  type EndpointWithSecret,
  type WebhookEndpoint,
} from '../api/webhooks-api';
import { EventLabel } from './event-label';

/** What the form opens for: a new endpoint, or the one it edits. */
export type EndpointFormTarget = { adding: true } | WebhookEndpoint;

const editing = (target: EndpointFormTarget): target is WebhookEndpoint => 'id' in target;

const EMPTY: EndpointFormInput = { url: '', events: [], description: '' };

/** Adds an endpoint (then `onAdded` shows its secret, once), or edits one (its state kept as it is). */
export function EndpointFormModal({
  target,
  eventTypes,
  onClose,
  onAdded,
}: {
  target: EndpointFormTarget | null;
  eventTypes: string[];
  onClose: () => void;
  onAdded: (added: EndpointWithSecret) => void;
}) {
  const t = useAdminT();
  const [addEndpoint, { isLoading: adding }] = useAddWebhookMutation();
  const [updateEndpoint, { isLoading: updating }] = useUpdateWebhookMutation();
  const isEdit = target !== null && editing(target);
  const { field, modal } = useDialogForm({
    schema: endpointFormSchema,
    openFor: target,
    values: (open) =>
      editing(open) ? { url: open.url, events: open.events, description: open.description } : EMPTY,
    save: async (values, open) => {
      if (editing(open)) {
        await updateEndpoint({ id: open.id, ...endpointBody(values), disabled: open.disabled }).unwrap();
        return t('webhooks.edit.success');
      }
      onAdded(await addEndpoint(endpointBody(values)).unwrap());
      return t('webhooks.add.success');
    },
    failure: isEdit ? t('webhooks.edit.failure') : t('webhooks.add.failure'),
    onClose,
  });
  const { error: eventsError, ...eventBox } = field('events');

  return (
    <FormModal
      {...modal}
      title={isEdit ? t('webhooks.form.editTitle') : t('webhooks.form.addTitle')}
      submitLabel={isEdit ? t('webhooks.form.editSubmit') : t('webhooks.form.addSubmit')}
      busy={adding || updating}
    >
      <Input
        label={t('webhooks.form.url')}
        hint={t('webhooks.form.urlHint')}
        type="url"
        autoComplete="off"
        spellCheck={false}
        {...field('url')}
      />
      <fieldset
        className={`field webhook-events${eventsError ? ' field--invalid' : ''}`}
        aria-describedby={eventsError ? 'webhook-events-error' : undefined}
      >
        <legend className="field__label">{t('webhooks.form.events')}</legend>
        {eventTypes.map((type) => (
          <label className="check" key={type}>
            <input type="checkbox" className="check__box" value={type} {...eventBox} />
            <EventLabel type={type} />
          </label>
        ))}
        {eventsError && (
          <p className="field__error" id="webhook-events-error" role="alert">
            {eventsError}
          </p>
        )}
      </fieldset>
      <Input
        label={t('webhooks.form.description')}
        hint={t('webhooks.form.descriptionHint')}
        autoComplete="off"
        {...field('description')}
      />
    </FormModal>
  );
}

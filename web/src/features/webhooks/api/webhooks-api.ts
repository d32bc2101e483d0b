import { z } from 'zod';
import { api, LIST } from '../../../lib/api';
import { request } from '../../../lib/api-request';
import type { ApiAnswer, ApiBody } from '../../../lib/api-types';
import { adminT } from '../../../i18n/admin/admin-i18n';

type EndpointList = ApiAnswer<'/api/admin/webhooks', 'get'>;
type WithSecret = ApiAnswer<'/api/admin/webhooks', 'post', 201>;
type EditedEndpoint = ApiAnswer<'/api/admin/webhooks/{id}', 'put'>;
type DeliveryList = ApiAnswer<'/api/admin/webhooks/{id}/deliveries', 'get'>;

/** A webhook endpoint as the integrations service answers it (never its secret). */
export type WebhookEndpoint = EndpointList['endpoints'][number];
/** One delivery of an event to an endpoint, as its log shows it. */
export type WebhookDelivery = DeliveryList['deliveries'][number];
/** What an endpoint is saved with: its URL, events, description and whether it is disabled. */
export type WebhookEndpointFields = ApiBody<'/api/admin/webhooks/{id}', 'put'>;
/** An event type an endpoint can take (the list's `eventTypes`). */
export type WebhookEventType = WebhookEndpointFields['events'][number];
/** An endpoint with the secret the service answers once (on adding it and on a rotation). */
export type EndpointWithSecret = WithSecret;

const MAX_URL = 2048;
const MAX_DESCRIPTION = 500;

/** The Add/Edit form, with the service's rules (the service alone checks where the URL leads). */
export const endpointFormSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, adminT('webhooks.form.urlRequired'))
    .max(MAX_URL, adminT('webhooks.form.urlTooLong', { max: MAX_URL }))
    .refine((value) => {
      try {
        return /^https?:$/.test(new URL(value).protocol);
      } catch {
        return false;
      }
    }, adminT('webhooks.form.urlNotUrl')),
  events: z.array(z.string()).min(1, adminT('webhooks.form.eventsRequired')),
  description: z
    .string()
    .trim()
    .max(MAX_DESCRIPTION, adminT('webhooks.form.descriptionTooLong', { max: MAX_DESCRIPTION })),
});
export type EndpointFormInput = z.infer<typeof endpointFormSchema>;

/** The form's values as the service takes them (the boxes offered are the service's own event types). */
export const endpointBody = (values: EndpointFormInput) => ({
  ...values,
  events: values.events as WebhookEventType[],
});

/** An endpoint's fields, to save it again with one of them changed. */
export const fieldsOf = (e: WebhookEndpoint): WebhookEndpointFields => ({
  url: e.url,
  events: e.events as WebhookEventType[],
  description: e.description,
  disabled: e.disabled,
});

const endpointTags = (endpoints: WebhookEndpoint[] = []) => [
  { type: 'WebhookEndpoint' as const, id: LIST },
  ...endpoints.map((e) => ({ type: 'WebhookEndpoint' as const, id: e.id })),
];

export const webhooksApi = api.injectEndpoints({
  endpoints: (build) => ({
    getWebhooks: build.query<EndpointList, void>({
      query: () => request('/api/admin/webhooks', 'get'),
      providesTags: (list) => endpointTags(list?.endpoints),
    }),
    addWebhook: build.mutation<WithSecret, Omit<WebhookEndpointFields, 'disabled'>>({
      query: (body) => request('/api/admin/webhooks', 'post', { body }),
      invalidatesTags: [{ type: 'WebhookEndpoint', id: LIST }],
    }),
    updateWebhook: build.mutation<WebhookEndpoint, WebhookEndpointFields & { id: string }>({
      query: ({ id, ...body }) => request('/api/admin/webhooks/{id}', 'put', { path: { id }, body }),
      transformResponse: (body: EditedEndpoint) => body.endpoint,
      invalidatesTags: (_r, _e, { id }) => [{ type: 'WebhookEndpoint', id }],
    }),
    deleteWebhook: build.mutation<void, string>({
      query: (id) => request('/api/admin/webhooks/{id}', 'delete', { path: { id } }),
      transformResponse: () => undefined,
      invalidatesTags: [{ type: 'WebhookEndpoint', id: LIST }],
    }),
    rotateWebhookSecret: build.mutation<WithSecret, string>({
      query: (id) => request('/api/admin/webhooks/{id}/rotate-secret', 'post', { path: { id } }),
      invalidatesTags: (_r, _e, id) => [{ type: 'WebhookEndpoint', id }],
    }),
    sendWebhookTest: build.mutation<void, string>({
      query: (id) => request('/api/admin/webhooks/{id}/test', 'post', { path: { id } }),
      transformResponse: () => undefined,
      invalidatesTags: (_r, _e, id) => [{ type: 'WebhookDelivery', id }],
    }),
    getWebhookDeliveries: build.query<WebhookDelivery[], string>({
      query: (id) => request('/api/admin/webhooks/{id}/deliveries', 'get', { path: { id } }),
      transformResponse: (body: DeliveryList) => body.deliveries,
      providesTags: (_d, _e, id) => [{ type: 'WebhookDelivery', id }],
    }),
    sendWebhookAgain: build.mutation<void, { id: string; deliveryId: string }>({
      query: ({ id, deliveryId }) =>
        request('/api/admin/webhooks/{id}/deliveries/{deliveryId}/send', 'post', {
          path: { id, deliveryId },
        }),
      transformResponse: () => undefined,
      invalidatesTags: (_r, _e, { id }) => [{ type: 'WebhookDelivery', id }],
    }),
  }),
});

export const {
  useGetWebhooksQuery,
  useAddWebhookMutation,
  useUpdateWebhookMutation,
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useSendWebhookTestMutation,
  useGetWebhookDeliveriesQuery,
  useSendWebhookAgainMutation,
} = webhooksApi;

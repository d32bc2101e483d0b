import { textField } from '@readiness/kit/http';
import { operationsFor } from '@readiness/kit/openapi';
import { z } from 'zod';
import type { DeliveryRecord, EndpointRecord } from '../../data-access/webhooks-repository';
import type { IntegrationsDeps } from '../../domain/context';
import {
  addEndpoint,
  changeEndpoint,
  deliveriesOf,
  listWebhookEndpoints,
  removeEndpoint,
  rotateEndpointSecret,
  sendDeliveryAgain,
  sendTestEvent,
} from '../../domain/webhooks/manage';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/payloads';
import { superAdminId } from './super-admin';

const TAG = 'Webhooks';

const endpointBody = z.object({
  url: textField({ label: 'URL' })
    .trim()
    .min(1, 'URL is required')
    .max(2048, 'URL must be at most 2048 characters'),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES as [string, ...string[]], { error: 'Unknown event type' }), {
      error: 'Events are required',
    })
    .min(1, 'Choose at least one event')
    .transform((events) => [...new Set(events)]),
  description: textField({ label: 'Description' })
    .trim()
    .max(500, 'Description must be at most 500 characters')
    .default(''),
});

const endpointOut = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  disabled: z.boolean(),
  disabledReason: z.string().nullable(),
  failingSince: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const deliveryOut = z.object({
  id: z.string(),
  eventType: z.string(),
  state: z.enum(['pending', 'sent', 'failed']),
  tries: z.number(),
  lastStatus: z.number().nullable(),
  lastAnswer: z.string().nullable(),
  lastLatencyMs: z.number().nullable(),
  lastTriedAt: z.string().nullable(),
  nextTryAt: z.string(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
});

const endpointView = (e: EndpointRecord) => ({
  ...e,
  failingSince: e.failingSince?.toISOString() ?? null,
  createdAt: e.createdAt.toISOString(),
  updatedAt: e.updatedAt.toISOString(),
});

const deliveryView = (d: DeliveryRecord) => ({
  ...d,
  lastTriedAt: d.lastTriedAt?.toISOString() ?? null,
  nextTryAt: d.nextTryAt.toISOString(),
  sentAt: d.sentAt?.toISOString() ?? null,
  createdAt: d.createdAt.toISOString(),
});

const idParams = z.object({ id: z.string() });
const refusals = { 401: 'Not signed in', 403: 'Not a super admin' } as const;
const withSecret = z.object({
  endpoint: endpointOut,
  secret: z.string().describe('whsec_…: shown this once; Readiness keeps it sealed'),
});

const operation = operationsFor<IntegrationsDeps>();

/** Webhook endpoints and their deliveries: super admins only. */
export const webhookOperations = {
  'GET /api/admin/webhooks': operation({
    summary: 'The webhook endpoints (never their secrets), and the event types an endpoint can take',
    tags: [TAG],
    admin: true,
    responses: {
      200: {
        description: 'In the order they were added',
        body: z.object({ endpoints: z.array(endpointOut), eventTypes: z.array(z.string()) }),
      },
      ...refusals,
    },
    async handle({ res }, deps) {
      superAdminId(res);
      const endpoints = await listWebhookEndpoints(deps.webhooks);
      return { endpoints: endpoints.map(endpointView), eventTypes: WEBHOOK_EVENT_TYPES };
    },
  }),
  'POST /api/admin/webhooks': operation({
    summary:
      'Adds an endpoint: https, not on a private, loopback, link-local or metadata address; its secret once',
    tags: [TAG],
    admin: true,
    body: endpointBody,
    responses: { 201: { description: 'Added', body: withSecret }, 400: 'Invalid field', ...refusals },
    async handle({ body, res }, deps) {
      const added = await addEndpoint(deps.webhooks, body, superAdminId(res));
      return { endpoint: endpointView(added.endpoint), secret: added.secret };
    },
  }),
  'PUT /api/admin/webhooks/{id}': operation({
    summary: 'Edits an endpoint, or disables (`disabled: true`) or enables it',
    tags: [TAG],
    admin: true,
    params: idParams,
    body: endpointBody.extend({
      disabled: z.boolean({ error: 'disabled must be true or false' }).default(false),
    }),
    responses: {
      200: { description: 'As it is now', body: z.object({ endpoint: endpointOut }) },
      400: 'Invalid field',
      ...refusals,
      404: 'No such endpoint',
    },
    async handle({ params, body, res }, deps) {
      return {
        endpoint: endpointView(await changeEndpoint(deps.webhooks, params.id, body, superAdminId(res))),
      };
    },
  }),
  'DELETE /api/admin/webhooks/{id}': operation({
    summary: 'Deletes an endpoint and its delivery log',
    tags: [TAG],
    admin: true,
    params: idParams,
    responses: { 204: { description: 'Deleted' }, ...refusals, 404: 'No such endpoint' },
    async handle({ params, res, answer }, deps) {
      await removeEndpoint(deps.webhooks, params.id, superAdminId(res));
      return answer(204);
    },
  }),
  'POST /api/admin/webhooks/{id}/rotate-secret': operation({
    summary: 'A new secret, shown once; the previous one keeps signing alongside it for 24 hours',
    tags: [TAG],
    admin: true,
    params: idParams,
    responses: { 200: { description: 'Rotated', body: withSecret }, ...refusals, 404: 'No such endpoint' },
    async handle({ params, res }, deps) {
      const rotated = await rotateEndpointSecret(deps.webhooks, params.id, superAdminId(res));
      return { endpoint: endpointView(rotated.endpoint), secret: rotated.secret };
    },
  }),
  'GET /api/admin/webhooks/{id}/deliveries': operation({
    summary:
      "An endpoint's newest deliveries: event, state, tries, status, latency, the first 1 KB of the answer",
    tags: [TAG],
    admin: true,
    params: idParams,
    query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
    responses: {
      200: { description: 'Newest first', body: z.object({ deliveries: z.array(deliveryOut) }) },
      ...refusals,
      404: 'No such endpoint',
    },
    async handle({ params, query, res }, deps) {
      superAdminId(res);
      const deliveries = await deliveriesOf(deps.webhooks, params.id, query.limit);
      return { deliveries: deliveries.map(deliveryView) };
    },
  }),
  'POST /api/admin/webhooks/{id}/deliveries/{deliveryId}/send': operation({
    summary: 'Sends one delivery again, with the same webhook-id (the receiver may have it already)',
    tags: [TAG],
    admin: true,
    params: z.object({ id: z.string(), deliveryId: z.string() }),
    responses: {
      202: { description: 'Queued', body: z.object({ delivery: deliveryOut }) },
      ...refusals,
      404: 'No such endpoint or delivery',
    },
    async handle({ params, res, answer }, deps) {
      superAdminId(res);
      const delivery = await sendDeliveryAgain(deps.webhooks, params.id, params.deliveryId);
      return answer(202, { delivery: deliveryView(delivery) });
    },
  }),
  'POST /api/admin/webhooks/{id}/test': operation({
    summary: 'Sends a `webhook.test` event to this endpoint',
    tags: [TAG],
    admin: true,
    params: idParams,
    responses: {
      202: { description: 'Queued', body: z.object({ deliveryId: z.string() }) },
      ...refusals,
      404: 'No such endpoint',
    },
    async handle({ params, res, answer }, deps) {
      superAdminId(res);
      return answer(202, { deliveryId: await sendTestEvent(deps.webhooks, params.id) });
    },
  }),
};

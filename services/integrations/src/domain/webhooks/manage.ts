import { randomBytes } from 'node:crypto';
import type { EventPayload } from '@readiness/contracts';
import type { Database, Tx } from '@readiness/kit/db';
import { notFound } from '@readiness/kit/errors';
import type { SecretBox } from '@readiness/kit/outbox';
import {
  deleteEndpoint,
  dropStudentDeliveries,
  endpointsFor,
  findEndpoint,
  insertDelivery,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  rearmDelivery,
  rotateSecret,
  updateEndpoint,
  type DeliveryRecord,
  type EndpointFields,
  type EndpointRecord,
} from '../../data-access/webhooks-repository';
import { checkedUrl, checkHost } from './safe-target';
import { webhookBody, webhookTypeOf, WEBHOOK_VERSION, type SourceEvent } from './payloads';

export interface WebhooksDeps {
  database: Database;
  secrets: SecretBox;
  allowPrivateNetworks: boolean;
  /** How long the previous secret keeps signing after a rotation, in milliseconds (24 h). */
  rotationOverlapMs: number;
}

const ENDPOINT_NOT_FOUND = 'Webhook endpoint not found';

/** A new secret as Standard Webhooks writes it: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

async function checkTarget(deps: WebhooksDeps, url: string): Promise<string> {
  const checked = checkedUrl(url, deps.allowPrivateNetworks);
  await checkHost(checked, deps.allowPrivateNetworks);
  return checked.toString();
}

export const listWebhookEndpoints = (deps: WebhooksDeps) => listEndpoints(deps.database.db);

/** A new endpoint and its secret, which is shown this once. */
export async function addEndpoint(
  deps: WebhooksDeps,
  fields: Omit<EndpointFields, 'disabled'>,
): Promise<{ endpoint: EndpointRecord; secret: string }> {
  const url = await checkTarget(deps, fields.url);
  const secret = newSecret();
  const endpoint = await insertEndpoint(deps.database.db, { ...fields, url }, deps.secrets.seal(secret));
  return { endpoint, secret };
}

export async function changeEndpoint(
  deps: WebhooksDeps,
  id: string,
  fields: EndpointFields,
): Promise<EndpointRecord> {
  const url = await checkTarget(deps, fields.url);
  const endpoint = await updateEndpoint(deps.database.db, id, { ...fields, url });
  if (!endpoint) throw notFound(ENDPOINT_NOT_FOUND);
  return endpoint;
}

export async function removeEndpoint(deps: WebhooksDeps, id: string): Promise<void> {
  if (!(await deleteEndpoint(deps.database.db, id))) throw notFound(ENDPOINT_NOT_FOUND);
}

/** A new secret; the previous one signs alongside it for the overlap, so receivers can switch without a gap. */
export async function rotateEndpointSecret(
  deps: WebhooksDeps,
  id: string,
): Promise<{ endpoint: EndpointRecord; secret: string }> {
  const secret = newSecret();
  const endpoint = await rotateSecret(
    deps.database.db,
    id,
    deps.secrets.seal(secret),
    new Date(Date.now() + deps.rotationOverlapMs),
  );
  if (!endpoint) throw notFound(ENDPOINT_NOT_FOUND);
  return { endpoint, secret };
}

async function endpointOrNotFound(deps: WebhooksDeps, id: string): Promise<EndpointRecord> {
  const endpoint = await findEndpoint(deps.database.db, id);
  if (!endpoint) throw notFound(ENDPOINT_NOT_FOUND);
  return endpoint;
}

export async function deliveriesOf(deps: WebhooksDeps, id: string, limit: number): Promise<DeliveryRecord[]> {
  await endpointOrNotFound(deps, id);
  return listDeliveries(deps.database.db, id, limit);
}

export async function sendDeliveryAgain(
  deps: WebhooksDeps,
  id: string,
  deliveryId: string,
): Promise<DeliveryRecord> {
  await endpointOrNotFound(deps, id);
  const delivery = await rearmDelivery(deps.database.db, id, deliveryId);
  if (!delivery) throw notFound('Delivery not found');
  return delivery;
}

/** "Send a test event": a `webhook.test` delivery to this endpoint alone, through the same sender. */
export async function sendTestEvent(deps: WebhooksDeps, id: string): Promise<string> {
  await endpointOrNotFound(deps, id);
  const body = JSON.stringify({
    type: 'webhook.test',
    version: WEBHOOK_VERSION,
    timestamp: new Date().toISOString(),
    data: { endpointId: id, message: 'A test event from Readiness' },
  });
  const deliveryId = await insertDelivery(deps.database.db, {
    endpointId: id,
    eventId: null,
    eventType: 'webhook.test',
    studentId: null,
    body,
  });
  return deliveryId!;
}

/**
 * Queues one of the product's events for every enabled endpoint that takes its type, in the consumer's
 * transaction (once per event and endpoint, whatever the redeliveries). A student's deletion also drops what
 * was queued about them, but the deletion itself.
 */
export async function queueWebhooks(
  tx: Tx,
  event: { id: string; name: string; occurredAt: Date; payload: EventPayload<SourceEvent> },
): Promise<number> {
  const type = webhookTypeOf(event.name);
  if (!type) return 0;
  const { studentId, body } = webhookBody(type, event.payload, event.occurredAt);
  if (type === 'student.deleted') await dropStudentDeliveries(tx, studentId);
  const endpoints = await endpointsFor(tx, type);
  const text = JSON.stringify(body);
  for (const endpointId of endpoints) {
    await insertDelivery(tx, {
      endpointId,
      eventId: event.id,
      eventType: type,
      studentId: studentId || null,
      body: text,
    });
  }
  return endpoints.length;
}

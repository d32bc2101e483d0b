import { randomBytes } from 'node:crypto';
import { payloadOf, WebhookEndpointChange, type EventPayload } from '@readiness/contracts';
import type { Database, Tx } from '@readiness/kit/db';
import { notFound } from '@readiness/kit/errors';
import { enqueue, type SecretBox } from '@readiness/kit/outbox';
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
import type { EventRoutes } from '../event-routes';
import { checkedUrl, checkHost, type HostResolver } from './safe-target';
import { webhookBody, webhookTypeOf, WEBHOOK_VERSION, type SourceEvent } from './payloads';

export interface WebhooksDeps {
  database: Database;
  secrets: SecretBox;
  allowPrivateNetworks: boolean;
  /** Where a host name leads, for the check at save (the sender checks again at each connection). */
  resolve: HostResolver;
  /** How long the previous secret keeps signing after a rotation, in milliseconds (24 h). */
  rotationOverlapMs: number;
  /** The webhook queue's bindings, which follow the endpoints (docs/events.md, "Bound on demand"). */
  routes: EventRoutes;
}

export const ENDPOINT_CHANGED = 'integrations.webhook-endpoint.changed.v1' as const;

const ENDPOINT_NOT_FOUND = 'Webhook endpoint not found';

/** A new secret as Standard Webhooks writes it: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

async function checkTarget(deps: WebhooksDeps, url: string): Promise<string> {
  const checked = checkedUrl(url, deps.allowPrivateNetworks);
  await checkHost(checked, deps.allowPrivateNetworks, deps.resolve);
  return checked.toString();
}

/** An admin's change into the outbox, in the transaction that made it: the audit log keeps it (never the secret). */
const announce = (tx: Tx, e: EndpointRecord, change: WebhookEndpointChange, actorId: string) =>
  enqueue(tx, {
    name: ENDPOINT_CHANGED,
    payload: payloadOf(ENDPOINT_CHANGED, {
      endpointId: e.id,
      url: e.url,
      description: e.description,
      events: e.events,
      change,
      actorId,
    }),
  });

/** What an edit changed: disabled or enabled, its fields, or both (a save that changed nothing is an edit). */
function changesOf(before: EndpointRecord, after: EndpointRecord): WebhookEndpointChange[] {
  const changes: WebhookEndpointChange[] = [];
  if (before.disabled !== after.disabled) {
    changes.push(after.disabled ? WebhookEndpointChange.DISABLED : WebhookEndpointChange.ENABLED);
  }
  const edited =
    before.url !== after.url ||
    before.description !== after.description ||
    before.events.join() !== after.events.join();
  if (edited || !changes.length) changes.push(WebhookEndpointChange.UPDATED);
  return changes;
}

export const listWebhookEndpoints = (deps: WebhooksDeps) => listEndpoints(deps.database.db);

/** A new endpoint and its secret, which is shown this once. */
export async function addEndpoint(
  deps: WebhooksDeps,
  fields: Omit<EndpointFields, 'disabled'>,
  actorId: string,
): Promise<{ endpoint: EndpointRecord; secret: string }> {
  const url = await checkTarget(deps, fields.url);
  const secret = newSecret();
  const endpoint = await deps.database.transaction(async (tx) => {
    const added = await insertEndpoint(tx, { ...fields, url }, deps.secrets.seal(secret));
    await announce(tx, added, WebhookEndpointChange.ADDED, actorId);
    await deps.routes.follow(tx);
    return added;
  });
  return { endpoint, secret };
}

/** New fields; disabling or enabling it is told apart from an edit in the audit log. */
export async function changeEndpoint(
  deps: WebhooksDeps,
  id: string,
  fields: EndpointFields,
  actorId: string,
): Promise<EndpointRecord> {
  const url = await checkTarget(deps, fields.url);
  return deps.database.transaction(async (tx) => {
    const before = await findEndpoint(tx, id, { forUpdate: true });
    if (!before) throw notFound(ENDPOINT_NOT_FOUND);
    const after = (await updateEndpoint(tx, id, { ...fields, url }))!;
    for (const change of changesOf(before, after)) await announce(tx, after, change, actorId);
    await deps.routes.follow(tx);
    return after;
  });
}

export async function removeEndpoint(deps: WebhooksDeps, id: string, actorId: string): Promise<void> {
  await deps.database.transaction(async (tx) => {
    const removed = await deleteEndpoint(tx, id);
    if (!removed) throw notFound(ENDPOINT_NOT_FOUND);
    await announce(tx, removed, WebhookEndpointChange.DELETED, actorId);
    // A removal only narrows what the bindings need: it never waits for the broker, nor fails when it is away.
    deps.routes.settleOnCommit(tx);
  });
}

/** A new secret; the previous one signs alongside it for the overlap, so receivers can switch without a gap. */
export async function rotateEndpointSecret(
  deps: WebhooksDeps,
  id: string,
  actorId: string,
): Promise<{ endpoint: EndpointRecord; secret: string }> {
  const secret = newSecret();
  const endpoint = await deps.database.transaction(async (tx) => {
    const rotated = await rotateSecret(
      tx,
      id,
      deps.secrets.seal(secret),
      new Date(Date.now() + deps.rotationOverlapMs),
    );
    if (!rotated) throw notFound(ENDPOINT_NOT_FOUND);
    await announce(tx, rotated, WebhookEndpointChange.SECRET_ROTATED, actorId);
    return rotated;
  });
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

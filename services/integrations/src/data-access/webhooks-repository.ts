import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';

export interface EndpointFields {
  url: string;
  description: string;
  events: string[];
  disabled: boolean;
}

export interface EndpointRecord extends EndpointFields {
  id: string;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An endpoint with its sealed secrets, as the sender needs it. */
export interface EndpointSecrets {
  sealedSecret: string;
  sealedPreviousSecret: string | null;
  previousSecretUntil: Date | null;
}

type EndpointRow = Omit<EndpointRecord, 'createdAt' | 'updatedAt' | 'failingSince'> & {
  createdAt: Date | string;
  updatedAt: Date | string;
  failingSince: Date | string | null;
};

const COLUMNS = sql`id, url, description, events, disabled, disabled_reason AS "disabledReason",
  failing_since AS "failingSince", created_at AS "createdAt", updated_at AS "updatedAt"`;

const toEndpoint = (r: EndpointRow): EndpointRecord => ({
  ...r,
  failingSince: r.failingSince ? new Date(r.failingSince) : null,
  createdAt: new Date(r.createdAt),
  updatedAt: new Date(r.updatedAt),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string) => UUID.test(id);

export async function listEndpoints(runner: Runner): Promise<EndpointRecord[]> {
  const found = await rows<EndpointRow>(
    runner,
    sql`SELECT ${COLUMNS} FROM webhook_endpoints ORDER BY created_at, id`,
  );
  return found.map(toEndpoint);
}

/** An endpoint; `forUpdate` holds its row for the transaction (an edit compares it with what it writes). */
export async function findEndpoint(
  runner: Runner,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<EndpointRecord | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await rows<EndpointRow>(
    runner,
    sql`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = ${id} ${options.forUpdate ? sql`FOR UPDATE` : sql``}`,
  );
  return row && toEndpoint(row);
}

export async function insertEndpoint(
  runner: Runner,
  f: Omit<EndpointFields, 'disabled'>,
  sealedSecret: string,
): Promise<EndpointRecord> {
  const [row] = await rows<EndpointRow>(
    runner,
    sql`INSERT INTO webhook_endpoints (url, description, events, sealed_secret)
        VALUES (${f.url}, ${f.description}, ${sql.param(f.events)}::text[], ${sealedSecret}) RETURNING ${COLUMNS}`,
  );
  return toEndpoint(row!);
}

/** New fields; enabling an endpoint clears why it was disabled and its failing time. */
export async function updateEndpoint(
  runner: Runner,
  id: string,
  f: EndpointFields,
): Promise<EndpointRecord | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await rows<EndpointRow>(
    runner,
    sql`UPDATE webhook_endpoints SET url = ${f.url}, description = ${f.description},
          events = ${sql.param(f.events)}::text[], disabled = ${f.disabled},
          disabled_reason = CASE WHEN ${f.disabled} THEN disabled_reason ELSE NULL END,
          failing_since = CASE WHEN ${f.disabled} THEN failing_since ELSE NULL END, updated_at = now()
        WHERE id = ${id} RETURNING ${COLUMNS}`,
  );
  return row && toEndpoint(row);
}

/** Deletes an endpoint (its deliveries go with it); the endpoint as it was, or undefined when there was none. */
export async function deleteEndpoint(runner: Runner, id: string): Promise<EndpointRecord | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await rows<EndpointRow>(
    runner,
    sql`DELETE FROM webhook_endpoints WHERE id = ${id} RETURNING ${COLUMNS}`,
  );
  return row && toEndpoint(row);
}

/** A new secret; the one before keeps signing until `until`. */
export async function rotateSecret(
  runner: Runner,
  id: string,
  sealedSecret: string,
  until: Date,
): Promise<EndpointRecord | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await rows<EndpointRow>(
    runner,
    sql`UPDATE webhook_endpoints SET sealed_previous_secret = sealed_secret, previous_secret_until = ${until},
          sealed_secret = ${sealedSecret}, updated_at = now()
        WHERE id = ${id} RETURNING ${COLUMNS}`,
  );
  return row && toEndpoint(row);
}

/** The enabled endpoints that take an event type. */
/** The event types at least one enabled endpoint takes. */
export async function subscribedEventTypes(runner: Runner): Promise<Set<string>> {
  const found = await rows<{ type: string }>(
    runner,
    sql`SELECT DISTINCT unnest(events) AS type FROM webhook_endpoints WHERE NOT disabled`,
  );
  return new Set(found.map((r) => r.type));
}

export async function endpointsFor(runner: Runner, eventType: string): Promise<string[]> {
  const found = await rows<{ id: string }>(
    runner,
    sql`SELECT id FROM webhook_endpoints WHERE NOT disabled AND ${eventType} = ANY (events)`,
  );
  return found.map((r) => r.id);
}

export interface NewDelivery {
  endpointId: string;
  eventId: string | null;
  eventType: string;
  studentId: string | null;
  body: string;
}

/** Queues a delivery once per event and endpoint; its id (the `webhook-id`), or undefined when queued before. */
export async function insertDelivery(runner: Runner, d: NewDelivery): Promise<string | undefined> {
  const [row] = await rows<{ id: string }>(
    runner,
    sql`INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, student_id, body)
        VALUES (${d.endpointId}, ${d.eventId}, ${d.eventType}, ${d.studentId}, ${d.body})
        ON CONFLICT (event_id, endpoint_id) DO NOTHING RETURNING id`,
  );
  return row?.id;
}

export interface DueDelivery {
  id: string;
  endpointId: string;
  body: string;
  tries: number;
  createdAt: Date;
  /** When it was first tried (null: this is its first try). */
  firstTriedAt: Date | null;
  url: string;
  secrets: EndpointSecrets;
}

/**
 * Takes the delivery due first whose student has no earlier delivery to the same endpoint still waiting (a
 * student's events arrive in Readiness's order), and holds it for the transaction: other replicas skip it.
 */
export async function takeDueDelivery(runner: Runner): Promise<DueDelivery | undefined> {
  const [row] = await rows<{
    id: string;
    endpoint_id: string;
    body: string;
    tries: number;
    created_at: Date | string;
    first_tried_at: Date | string | null;
    url: string;
    sealed_secret: string;
    sealed_previous_secret: string | null;
    previous_secret_until: Date | string | null;
  }>(
    runner,
    sql`SELECT d.id, d.endpoint_id, d.body, d.tries, d.created_at, d.first_tried_at, e.url, e.sealed_secret, e.sealed_previous_secret,
               e.previous_secret_until
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.state = 'pending' AND d.next_try_at <= now() AND NOT e.disabled
          AND NOT EXISTS (
            SELECT 1 FROM webhook_deliveries before
            WHERE before.endpoint_id = d.endpoint_id AND before.student_id = d.student_id
              AND before.state = 'pending' AND before.seq < d.seq)
        ORDER BY d.seq
        LIMIT 1
        FOR UPDATE OF d SKIP LOCKED`,
  );
  if (!row) return undefined;
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    body: row.body,
    tries: row.tries,
    createdAt: new Date(row.created_at),
    firstTriedAt: row.first_tried_at ? new Date(row.first_tried_at) : null,
    url: row.url,
    secrets: {
      sealedSecret: row.sealed_secret,
      sealedPreviousSecret: row.sealed_previous_secret,
      previousSecretUntil: row.previous_secret_until ? new Date(row.previous_secret_until) : null,
    },
  };
}

export interface TryOutcome {
  state: 'pending' | 'sent' | 'failed';
  status: number | null;
  answer: string;
  latencyMs: number;
  nextTryAt?: Date;
}

/** Records a try, and the endpoint's health: failing since the first failure after a success. */
export async function recordTry(runner: Runner, d: DueDelivery, o: TryOutcome): Promise<void> {
  await runner.execute(
    sql`UPDATE webhook_deliveries SET state = ${o.state}, tries = tries + 1, last_status = ${o.status},
          last_answer = ${o.answer}, last_latency_ms = ${o.latencyMs}, last_tried_at = now(),
          first_tried_at = COALESCE(first_tried_at, now()),
          next_try_at = ${o.nextTryAt ?? new Date()},
          sent_at = CASE WHEN ${o.state} = 'sent' THEN now() ELSE sent_at END
        WHERE id = ${d.id}`,
  );
  await runner.execute(
    o.state === 'sent'
      ? sql`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ${d.endpointId} AND failing_since IS NOT NULL`
      : sql`UPDATE webhook_endpoints SET failing_since = now() WHERE id = ${d.endpointId} AND failing_since IS NULL`,
  );
}

/**
 * Disables the endpoint of a given-up delivery when it has answered nothing but failures since that delivery's
 * first try (recorded before this is called): the endpoint as it is now when this call disabled it, else undefined.
 */
export async function disableIfFailingThroughout(
  runner: Runner,
  d: DueDelivery,
  reason: string,
): Promise<EndpointRecord | undefined> {
  const [row] = await rows<EndpointRow>(
    runner,
    sql`UPDATE webhook_endpoints SET disabled = true, disabled_reason = ${reason}, updated_at = now()
        WHERE id = ${d.endpointId} AND NOT disabled AND failing_since IS NOT NULL
          AND failing_since <= (SELECT first_tried_at FROM webhook_deliveries WHERE id = ${d.id})
        RETURNING ${COLUMNS}`,
  );
  return row && toEndpoint(row);
}

export interface DeliveryRecord {
  id: string;
  eventType: string;
  state: 'pending' | 'sent' | 'failed';
  tries: number;
  lastStatus: number | null;
  lastAnswer: string | null;
  lastLatencyMs: number | null;
  lastTriedAt: Date | null;
  nextTryAt: Date;
  sentAt: Date | null;
  createdAt: Date;
}

const DELIVERY_COLUMNS = sql`id, event_type AS "eventType", state, tries, last_status AS "lastStatus",
  last_answer AS "lastAnswer", last_latency_ms AS "lastLatencyMs", last_tried_at AS "lastTriedAt",
  next_try_at AS "nextTryAt", sent_at AS "sentAt", created_at AS "createdAt"`;

type DeliveryRow = Record<keyof DeliveryRecord, unknown>;
const toDelivery = (r: DeliveryRow): DeliveryRecord => ({
  id: r.id as string,
  eventType: r.eventType as string,
  state: r.state as DeliveryRecord['state'],
  tries: r.tries as number,
  lastStatus: r.lastStatus as number | null,
  lastAnswer: r.lastAnswer as string | null,
  lastLatencyMs: r.lastLatencyMs as number | null,
  lastTriedAt: r.lastTriedAt ? new Date(r.lastTriedAt as string) : null,
  nextTryAt: new Date(r.nextTryAt as string),
  sentAt: r.sentAt ? new Date(r.sentAt as string) : null,
  createdAt: new Date(r.createdAt as string),
});

/** An endpoint's newest deliveries, newest first. */
export async function listDeliveries(
  runner: Runner,
  endpointId: string,
  limit: number,
): Promise<DeliveryRecord[]> {
  const found = await rows<DeliveryRow>(
    runner,
    sql`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE endpoint_id = ${endpointId}
        ORDER BY created_at DESC, seq DESC LIMIT ${limit}`,
  );
  return found.map(toDelivery);
}

/** "Send again": the delivery is due now, with a fresh give-up time; undefined when it is not the endpoint's. */
export async function rearmDelivery(
  runner: Runner,
  endpointId: string,
  deliveryId: string,
): Promise<DeliveryRecord | undefined> {
  if (!isUuid(deliveryId)) return undefined;
  const [row] = await rows<DeliveryRow>(
    runner,
    sql`UPDATE webhook_deliveries SET state = 'pending', tries = 0, next_try_at = now(), created_at = now(),
          first_tried_at = NULL
        WHERE id = ${deliveryId} AND endpoint_id = ${endpointId} RETURNING ${DELIVERY_COLUMNS}`,
  );
  return row && toDelivery(row);
}

/**
 * A student erased: every delivery about them goes (what waited is not sent, and the log keeps no copy of their
 * data), but the `student.deleted` deliveries that tell the receivers to erase them too.
 */
export async function dropStudentDeliveries(runner: Runner, studentId: string): Promise<void> {
  await runner.execute(
    sql`DELETE FROM webhook_deliveries WHERE student_id = ${studentId} AND event_type <> 'student.deleted'`,
  );
}

/**
 * When the next delivery `takeDueDelivery` could take is due (null: none): the first pending delivery of each
 * student and endpoint, on an enabled endpoint, for the sender's pause.
 */
export async function nextDeliveryDue(runner: Runner): Promise<Date | null> {
  const [row] = await rows<{ due: Date | string | null }>(
    runner,
    sql`SELECT min(d.next_try_at) AS due
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.state = 'pending' AND NOT e.disabled
          AND NOT EXISTS (
            SELECT 1 FROM webhook_deliveries before
            WHERE before.endpoint_id = d.endpoint_id AND before.student_id = d.student_id
              AND before.state = 'pending' AND before.seq < d.seq)`,
  );
  return row?.due ? new Date(row.due) : null;
}

/**
 * What the scenarios read from and do to RabbitMQ, outside the product: queue depths and dead letters from the
 * management API, a tap that delivers every event two or three times, and poison messages.
 */
import { randomUUID } from 'node:crypto';
import amqp, { type ConsumeMessage } from 'amqplib';

const EXCHANGE = 'readiness.events';
const TAP_QUEUE = 'faults.duplicating-tap';
/** Marks the copies the tap publishes, so it does not copy its own copies. */
const COPY_HEADER = 'x-fault-copy';

function management(): { base: string; auth: string } {
  const u = new URL(process.env.TEST_AMQP_MANAGEMENT_URL ?? 'http://guest:guest@127.0.0.1:15672');
  const auth = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString(
    'base64',
  );
  return { base: `${u.protocol}//${u.host}/api`, auth };
}

async function get<T>(path: string): Promise<T> {
  const { base, auth } = management();
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Basic ${auth}` } });
  if (!res.ok) throw new Error(`RabbitMQ management GET ${path}: ${res.status}`);
  return (await res.json()) as T;
}

interface QueueInfo {
  name: string;
  messages?: number;
  message_stats?: { redeliver?: number };
}

async function queues(vhost: string): Promise<QueueInfo[]> {
  return get<QueueInfo[]>(
    `/queues/${encodeURIComponent(vhost)}?columns=name,messages,message_stats.redeliver`,
  );
}

const isDeadLetterQueue = (name: string) => name.endsWith('.dlq');
const isOwnQueue = (name: string) => name.startsWith('faults.');

/** Messages in each dead-letter queue, by the handler queue it belongs to. */
export async function deadLetters(vhost: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const q of await queues(vhost))
    if (isDeadLetterQueue(q.name)) out[q.name.slice(0, -'.dlq'.length)] = q.messages ?? 0;
  return out;
}

/** Dead letters added since `before`, by handler queue (only the queues that gained some). */
export function deadLettersSince(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  const added: Record<string, number> = {};
  for (const [queue, count] of Object.entries(after)) {
    const delta = count - (before[queue] ?? 0);
    if (delta !== 0) added[queue] = delta;
  }
  return added;
}

/**
 * Messages still queued or unacknowledged anywhere but the dead-letter queues: handler queues and their wait
 * (retry) queues. The management API samples every few seconds, so callers wait for it to stay at zero.
 */
export async function inFlight(vhost: string): Promise<Record<string, number>> {
  const busy: Record<string, number> = {};
  for (const q of await queues(vhost)) {
    if (isDeadLetterQueue(q.name) || isOwnQueue(q.name) || q.name.endsWith('.unrouted')) continue;
    if ((q.messages ?? 0) > 0) busy[q.name] = q.messages ?? 0;
  }
  return busy;
}

/** Deliveries the broker made again (after a consumer died with them unacknowledged), over every queue. */
export async function redeliveries(vhost: string): Promise<number> {
  return (await queues(vhost)).reduce((sum, q) => sum + (q.message_stats?.redeliver ?? 0), 0);
}

/** The routing keys each handler queue binds on the events exchange. */
export async function bindings(vhost: string): Promise<Record<string, string[]>> {
  const list = await get<Array<{ destination: string; destination_type: string; routing_key: string }>>(
    `/exchanges/${encodeURIComponent(vhost)}/${EXCHANGE}/bindings/source`,
  );
  const out: Record<string, string[]> = {};
  for (const b of list) {
    if (b.destination_type !== 'queue' || isOwnQueue(b.destination)) continue;
    (out[b.destination] ??= []).push(b.routing_key);
  }
  return out;
}

export interface PoisonReport {
  /** Routing keys a poison message was published with. */
  routingKeys: string[];
}

/** Publishes, with each routing key, a body that is no event envelope at all (confirmed by the broker). */
export async function publishPoison(amqpUrl: string, routingKeys: string[]): Promise<PoisonReport> {
  const conn = await amqp.connect(amqpUrl);
  try {
    const ch = await conn.createConfirmChannel();
    for (const key of routingKeys) {
      ch.publish(EXCHANGE, key, Buffer.from(`\u0000\u00ffpoison for ${key}: not an envelope`), {
        persistent: true,
        messageId: randomUUID(),
        contentType: 'application/x-protobuf',
      });
    }
    await ch.waitForConfirms();
    return { routingKeys };
  } finally {
    await conn.close();
  }
}

export interface Duplicator {
  /** Waits for the copies still scheduled, removes the tap and reports what it did. */
  stop(): Promise<{ events: number; copies: number; byEvent: Record<string, number> }>;
}

/**
 * Delivers every event published to the events exchange two or three times: a queue bound to every routing key
 * takes a copy of each event, and each is published again to the exchange, with its routing key, message id,
 * body and headers, once or twice (alternately). The first copy goes at once, racing the original to its
 * consumers; a second one follows 1 to 3 seconds later, once the original has usually been handled.
 */
export async function startDuplicator(amqpUrl: string): Promise<Duplicator> {
  const conn = await amqp.connect(amqpUrl);
  const ch = await conn.createConfirmChannel();
  await ch.assertQueue(TAP_QUEUE, { durable: false, exclusive: true });
  await ch.bindQueue(TAP_QUEUE, EXCHANGE, '#');
  let events = 0;
  let copies = 0;
  const byEvent: Record<string, number> = {};
  const pending = new Set<Promise<void>>();
  const republish = (msg: ConsumeMessage, copy: number): Promise<void> =>
    new Promise((resolve, reject) => {
      ch.publish(
        EXCHANGE,
        msg.fields.routingKey,
        msg.content,
        { ...msg.properties, headers: { ...msg.properties.headers, [COPY_HEADER]: copy } },
        (err) => {
          if (err) return reject(err instanceof Error ? err : new Error(String(err)));
          copies++;
          byEvent[msg.fields.routingKey] = (byEvent[msg.fields.routingKey] ?? 0) + 1;
          resolve();
        },
      );
    });
  const track = (p: Promise<void>) => {
    const tracked = p.finally(() => pending.delete(tracked));
    pending.add(tracked);
  };
  const { consumerTag } = await ch.consume(TAP_QUEUE, (msg) => {
    if (!msg) return;
    ch.ack(msg);
    if (msg.properties.headers?.[COPY_HEADER] !== undefined) return;
    const extra = events % 2 === 0 ? 1 : 2;
    events++;
    track(republish(msg, 1));
    if (extra === 2) {
      const later = new Promise<void>((resolve) => setTimeout(resolve, 1_000 + Math.random() * 2_000)).then(
        () => republish(msg, 2),
      );
      track(later);
    }
  });
  return {
    async stop() {
      await ch.cancel(consumerTag);
      while (pending.size) await Promise.all([...pending]);
      await ch.waitForConfirms();
      await ch.deleteQueue(TAP_QUEUE);
      await conn.close();
      return { events, copies, byEvent };
    },
  };
}

/** Reads counters from a service's Prometheus page (its internal port): `name{labels} value` lines. */
export async function metric(
  internalUrl: string,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const text = await (await fetch(`${internalUrl}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const match = /^[^{]+\{([^}]*)\}\s+(\S+)$/.exec(line);
    if (!match) continue;
    const found = Object.fromEntries(
      [...match[1]!.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) sum += Number(match[2]);
  }
  return sum;
}
